/** npm start rebuilds the window only when it is missing or a source is newer than the build. */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rendererBuildState } from '../../../scripts/renderer-build.js';

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-build-'));
  await fs.mkdir(path.join(root, 'renderer', 'src', 'deep'), { recursive: true });
  await fs.writeFile(path.join(root, 'renderer', 'src', 'deep', 'App.tsx'), 'x');
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));

describe('rendererBuildState', () => {
  it('is missing without a built index.html, fresh after a build, stale once a source changes', async () => {
    const built = path.join(root, 'out', 'index.html');
    const sources = [path.join(root, 'renderer')];
    const source = path.join(root, 'renderer', 'src', 'deep', 'App.tsx');
    expect(await rendererBuildState(built, sources)).toBe('missing');
    await fs.mkdir(path.dirname(built));
    await fs.writeFile(built, '<html>');
    await fs.utimes(source, at(0), at(0));
    await fs.utimes(built, at(10), at(10));
    expect(await rendererBuildState(built, sources)).toBe('fresh');
    await fs.utimes(source, at(20), at(20));
    expect(await rendererBuildState(built, sources)).toBe('stale');
  });
});
