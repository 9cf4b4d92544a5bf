/**
 * An install's fraction is the tarballs npm has fetched of those the lockfile says this
 * machine fetches: other platforms' native packages and local or bundled ones do not count.
 */
import { describe, expect, it } from 'vitest';
import {
  LineSplitter,
  npmProblem,
  readNpmLine,
  tarballsToFetch,
  type Platform,
} from '../../../../../electron/core/agents/npm-progress.js';

const LINUX_X64: Platform = { os: 'linux', cpu: 'x64', libc: 'glibc' };

function lock(packages: Record<string, object>): string {
  return JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies: {} }, ...packages } });
}

describe('tarballs to fetch', () => {
  it('counts the registry packages of the tree, the root left out', () => {
    const text = lock({
      'node_modules/a': { version: '1.0.0' },
      'node_modules/b': { version: '1.0.0', resolved: 'https://registry.npmjs.org/b/-/b-1.0.0.tgz' },
    });

    expect(tarballsToFetch(text, LINUX_X64)).toBe(2);
  });

  it('leaves out other platforms’ optional packages, as npm does', () => {
    const text = lock({
      'node_modules/sdk-linux-x64': { os: ['linux'], cpu: ['x64'], libc: ['glibc'], optional: true },
      'node_modules/sdk-linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'], optional: true },
      'node_modules/sdk-linux-arm64': { os: ['linux'], cpu: ['arm64'], optional: true },
      'node_modules/sdk-darwin-arm64': { os: ['darwin'], cpu: ['arm64'], optional: true },
      'node_modules/not-on-windows': { os: ['!win32'] },
      'node_modules/not-on-linux': { os: ['!linux'] },
    });

    expect(tarballsToFetch(text, LINUX_X64)).toBe(2);
    expect(tarballsToFetch(text, { os: 'darwin', cpu: 'arm64', libc: null })).toBe(3);
  });

  it('leaves out local files, links and bundled packages, which are not fetched', () => {
    const text = lock({
      'node_modules/local': { resolved: 'file:../x.tgz' },
      'node_modules/linked': { resolved: '../y', link: true },
      'node_modules/a/node_modules/bundled': { inBundle: true },
    });

    expect(tarballsToFetch(text, LINUX_X64)).toBe(0);
  });

  it('counts a package held in several places of the tree once, as npm fetches it once', () => {
    const text = lock({
      'node_modules/content-type': { version: '1.0.5' },
      'node_modules/express/node_modules/content-type': { version: '2.1.0' },
      'node_modules/body-parser/node_modules/content-type': { version: '2.1.0' },
    });

    expect(tarballsToFetch(text, LINUX_X64)).toBe(2);
  });

  it('counts nothing in a lockfile it cannot read', () => {
    expect(tarballsToFetch('not json', LINUX_X64)).toBe(0);
  });
});

describe('npm’s lines', () => {
  it('reads a fetched tarball, from the network or npm’s cache', () => {
    expect(
      readNpmLine('npm http fetch GET 200 https://registry.npmjs.org/diff/-/diff-9.0.0.tgz 18ms (cache miss)'),
    ).toEqual({
      kind: 'tarball',
      url: 'https://registry.npmjs.org/diff/-/diff-9.0.0.tgz',
    });
    expect(readNpmLine('npm http cache diff@https://registry.npmjs.org/diff/-/diff-9.0.0.tgz 0ms (cache hit)')).toEqual(
      {
        kind: 'tarball',
        url: 'https://registry.npmjs.org/diff/-/diff-9.0.0.tgz',
      },
    );
  });

  it('reads a package’s metadata by its name', () => {
    expect(readNpmLine('npm http fetch GET 200 https://registry.npmjs.org/@google%2fgemini-cli 87ms')).toEqual({
      kind: 'metadata',
      name: '@google/gemini-cli',
    });
  });

  it('keeps npm’s error lines and leaves out its pointer to its log', () => {
    const lines = [
      'code E404',
      '404 Not Found - GET https://registry.npmjs.org/nope',
      'A complete log of this run can be found in: /root/.npm/_logs/x.log',
    ];
    expect(lines.map((l) => readNpmLine(`npm error ${l}`))).toEqual(lines.map((text) => ({ kind: 'problem', text })));
    expect(npmProblem(lines)).toBe('code E404 404 Not Found - GET https://registry.npmjs.org/nope');
  });

  it('splits streamed output into whole lines', () => {
    const lines: string[] = [];
    const split = new LineSplitter((l) => lines.push(l));
    split.push('npm http fe');
    split.push('tch GET 200 x\r\nnext');
    split.end();
    expect(lines).toEqual(['npm http fetch GET 200 x', 'next']);
  });
});
