/**
 * A tiny stand-in for an agent's adapter, packed with `npm pack` into a tarball under
 * /var/tmp, so the installer's tests run npm for real without the registry: a spec
 * naming the tarball is installed exactly as the catalog's packages are.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { catalogSpec } from '../../../../../electron/core/agents/agent-catalog.js';
import type { AgentSpec } from '../../../../../electron/core/agents/agent-spec.js';
import type { AgentId } from '../../../../../shared/agents.js';

export const FAKE_PACKAGE = 'fake-acp-adapter';
export const FAKE_ENTRY = `node_modules/${FAKE_PACKAGE}/dist/index.js`;

/**
 * What the fake adapter's bin does when run: prints one line and exits (the default), or,
 * for the install's ACP check, answers `initialize` as an agent does (`acp`), answers with a
 * protocol Gatehouse does not speak (`old-protocol`) (either exits when given Claude Code's key), answers every line with text that is
 * no JSON (`garbage`), exits at once with a line on stderr (`exit`), or never answers (`hang`).
 */
export type FakeBehaviour = 'print' | 'acp' | 'old-protocol' | 'garbage' | 'exit' | 'hang';

/** Reads ACP's newline-delimited JSON by hand: the package is packed offline, without the SDK. */
function answerInitialize(version: string, protocolVersion: number): string {
  // A key handed to the install's check is a leak: the check needs no model.
  return `
if (process.env.ANTHROPIC_API_KEY) { console.error('the check handed me a key'); process.exit(4); }
const readline = require('node:readline');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.method !== 'initialize') return;
  const result = { protocolVersion: ${protocolVersion}, agentCapabilities: {}, authMethods: [], agentInfo: { name: 'fake', version: '${version}' } };
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result }) + '\\n');
});
`;
}

function binScript(behaviour: FakeBehaviour, version: string): string {
  switch (behaviour) {
    case 'print':
      return `console.log('fake adapter ${version}');\n`;
    case 'acp':
      return answerInitialize(version, 1);
    case 'old-protocol':
      return answerInitialize(version, 99);
    case 'garbage':
      return `require('node:readline').createInterface({ input: process.stdin }).on('line', () => console.log('Welcome to fake adapter ${version}!'));\n`;
    case 'exit':
      return `console.error('fake adapter ${version}: cannot find module ./missing.js');\nprocess.exit(3);\n`;
    case 'hang':
      return `setInterval(() => {}, 60_000);\n`;
  }
}

/** Packs version `version` of the fake adapter (or of a package `name`) into `dir`; the tarball's path. */
export async function packFakeAdapter(
  dir: string,
  version: string,
  {
    name = FAKE_PACKAGE,
    dependencies = {},
    behaviour = 'print',
  }: { name?: string; dependencies?: Record<string, string>; behaviour?: FakeBehaviour } = {},
): Promise<string> {
  const src = path.join(dir, `src-${name}-${version}-${behaviour}`);
  await fs.mkdir(path.join(src, 'dist'), { recursive: true });
  const manifest = { name, version, bin: { [name]: 'dist/index.js' }, dependencies };
  await fs.writeFile(path.join(src, 'package.json'), JSON.stringify(manifest));
  await fs.writeFile(path.join(src, 'dist', 'index.js'), binScript(behaviour, version));
  const file = execFileSync('npm', ['pack', '--pack-destination', dir, '--loglevel', 'error'], {
    cwd: src,
    encoding: 'utf8',
  }).trim();
  return path.join(dir, file);
}

/** The catalog's spec for `id` with the fake adapter's tarball as its package, pinned to `version`. */
export function fakeSpec(id: AgentId, tarball: string, version: string): AgentSpec {
  return { ...catalogSpec(id), version, packages: [tarball], entry: FAKE_ENTRY };
}

/** An executable `npm` in `bin` that runs `script` (a shell script body) instead of npm. */
export async function fakeNpm(bin: string, script: string): Promise<void> {
  await fs.mkdir(bin, { recursive: true });
  await fs.writeFile(path.join(bin, 'npm'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
}

/** A PATH with node (this test's) but no npm: a folder holding only a link to node. */
export async function pathWithoutNpm(bin: string): Promise<string> {
  await fs.mkdir(bin, { recursive: true });
  await fs.symlink(process.execPath, path.join(bin, 'node'));
  return bin;
}

/** npm's environment for the tests: this process's, offline, with a cache of its own. */
export function offlineNpmEnv(cache: string, PATH = process.env.PATH): NodeJS.ProcessEnv {
  return { ...process.env, PATH, npm_config_offline: 'true', npm_config_cache: cache };
}
