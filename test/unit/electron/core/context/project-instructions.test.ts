import { execFileSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { INSTRUCTIONS_MAX_BYTES } from '../../../../../shared/limits.js';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { projectInstructions } from '../../../../../electron/core/context/project-instructions.js';
import { useTempDir } from '../log/temp-dir.js';

const tmp = useTempDir();
let root: string;
let workspace: Workspace;

beforeEach(async () => {
  root = path.join(tmp.path, 'ws');
  await mkdir(root);
  workspace = await Workspace.open(root);
});

const put = (name: string, content: string | Buffer) => writeFile(path.join(root, name), content);

describe('projectInstructions', () => {
  it('returns AGENTS.md verbatim', async () => {
    await put('AGENTS.md', 'Run npm test before finishing.\n');
    expect(await projectInstructions(workspace)).toEqual({
      file: 'AGENTS.md',
      text: 'Run npm test before finishing.\n',
    });
  });

  it('prefers AGENTS.md over CLAUDE.md', async () => {
    await put('AGENTS.md', 'from agents');
    await put('CLAUDE.md', 'from claude');
    expect(await projectInstructions(workspace)).toEqual({ file: 'AGENTS.md', text: 'from agents' });
  });

  it('falls back to CLAUDE.md when there is no AGENTS.md', async () => {
    await put('CLAUDE.md', 'from claude');
    expect(await projectInstructions(workspace)).toEqual({ file: 'CLAUDE.md', text: 'from claude' });
  });

  it('returns null when there is neither', async () => {
    expect(await projectInstructions(workspace)).toBeNull();
  });

  it('keeps a file of exactly the limit whole', async () => {
    await put('AGENTS.md', 'a'.repeat(INSTRUCTIONS_MAX_BYTES));
    expect((await projectInstructions(workspace))?.text).toBe('a'.repeat(INSTRUCTIONS_MAX_BYTES));
  });

  it('cuts AGENTS.md over 64 KiB and says where', async () => {
    await put('AGENTS.md', 'a'.repeat(INSTRUCTIONS_MAX_BYTES) + 'TAIL');
    const text = (await projectInstructions(workspace))?.text;
    expect(text).toBe(`${'a'.repeat(INSTRUCTIONS_MAX_BYTES)}\n[... AGENTS.md cut at ${INSTRUCTIONS_MAX_BYTES} bytes]`);
  });

  it('cuts before a character the limit would split, not inside it', async () => {
    // 'é' is two bytes, starting one byte before the limit.
    await put('AGENTS.md', 'a'.repeat(INSTRUCTIONS_MAX_BYTES - 1) + 'é');
    const text = (await projectInstructions(workspace))?.text ?? '';
    expect(text.startsWith(`${'a'.repeat(INSTRUCTIONS_MAX_BYTES - 1)}\n[... AGENTS.md cut`)).toBe(true);
    expect(text).not.toContain('\uFFFD');
  });

  it('ignores an AGENTS.md symlink that points out of the workspace, using CLAUDE.md instead', async () => {
    const outside = path.join(tmp.path, 'secret.md');
    await writeFile(outside, 'outside text');
    await symlink(outside, path.join(root, 'AGENTS.md'));
    await put('CLAUDE.md', 'inside text');
    expect(await projectInstructions(workspace)).toEqual({ file: 'CLAUDE.md', text: 'inside text' });
  });

  it('follows an AGENTS.md symlink that stays inside the workspace', async () => {
    await mkdir(path.join(root, 'docs'));
    await put('docs/agents.md', 'linked inside');
    await symlink('docs/agents.md', path.join(root, 'AGENTS.md'));
    expect(await projectInstructions(workspace)).toEqual({ file: 'AGENTS.md', text: 'linked inside' });
  });

  it('skips an AGENTS.md that is a FIFO instead of hanging on it', async () => {
    execFileSync('mkfifo', [path.join(root, 'AGENTS.md')]);
    await put('CLAUDE.md', 'from claude');
    expect(await projectInstructions(workspace)).toEqual({ file: 'CLAUDE.md', text: 'from claude' });
  });

  it('returns null when the only instructions file is a FIFO', async () => {
    execFileSync('mkfifo', [path.join(root, 'CLAUDE.md')]);
    expect(await projectInstructions(workspace)).toBeNull();
  });

  it("never reads a link into the app's data folder, even with the data folder inside the workspace", async () => {
    const dataDir = path.join(root, '.gatehouse-data');
    await mkdir(dataDir);
    await writeFile(path.join(dataDir, 'web-token'), 'secret-token');
    await symlink(path.join(dataDir, 'web-token'), path.join(root, 'AGENTS.md'));
    await put('CLAUDE.md', 'from claude');
    const guarded = await Workspace.open(root, { dataDir });
    expect(await projectInstructions(guarded)).toEqual({ file: 'CLAUDE.md', text: 'from claude' });
  });
});
