/**
 * An agent's folder after a crash: an install being made by a process that is gone is
 * removed; a previous install set aside by a swap cut short is put back; one another
 * running process is making is left alone.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentFolders, entryPackageDir, recover } from '../../../../../electron/core/agents/agent-folder.js';

let root: string;
/** A pid no process has: a child that has exited and been reaped. */
let deadPid: number;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-agent-folder-'));
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.once('exit', resolve));
  deadPid = child.pid as number;
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function folderWith(names: string[]): Promise<ReturnType<typeof agentFolders>> {
  const folders = agentFolders(root, 'gemini-cli');
  for (const name of names) {
    await fs.mkdir(path.join(folders.dir, name), { recursive: true });
    await fs.writeFile(path.join(folders.dir, name, 'marker'), name);
  }
  return folders;
}

describe('recovering an agent folder', () => {
  it('puts back a previous install set aside when no new one took its place', async () => {
    const folders = await folderWith([`pkg.old-${deadPid}-aa`, `pkg.new-${deadPid}-bb`, 'home']);

    await recover(folders);

    expect((await fs.readdir(folders.dir)).sort()).toEqual(['home', 'pkg']);
    expect(await fs.readFile(path.join(folders.prefix, 'marker'), 'utf8')).toBe(`pkg.old-${deadPid}-aa`);
  });

  it('removes what was set aside once the new install is in place', async () => {
    const folders = await folderWith(['pkg', `pkg.old-${deadPid}-aa`]);

    await recover(folders);

    expect(await fs.readdir(folders.dir)).toEqual(['pkg']);
    expect(await fs.readFile(path.join(folders.prefix, 'marker'), 'utf8')).toBe('pkg');
  });

  it('leaves alone an install another running process is making', async () => {
    const folders = await folderWith([`pkg.new-${process.ppid}-cc`]);

    await recover(folders);

    expect(await fs.readdir(folders.dir)).toEqual([`pkg.new-${process.ppid}-cc`]);
  });

  it('does nothing for an agent never installed', async () => {
    await expect(recover(agentFolders(root, 'codex'))).resolves.toBeUndefined();
  });
});

describe('the entry’s package', () => {
  it('is the folder under the last node_modules, scoped or not', () => {
    expect(entryPackageDir('node_modules/@agentclientprotocol/claude-agent-acp/dist/index.js')).toBe(
      'node_modules/@agentclientprotocol/claude-agent-acp',
    );
    expect(entryPackageDir('node_modules/opencode-ai/bin/opencode.exe')).toBe('node_modules/opencode-ai');
    expect(() => entryPackageDir('dist/index.js')).toThrow(/not a file inside node_modules/);
  });
});
