import { execFileSync } from 'node:child_process';
import { mkdir, symlink, unlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GREP_LINE_MAX_CHARS, GREP_MAX_MATCHES } from '../../../../../shared/limits.js';
import { createGrepTool } from '../../../../../electron/core/tools/grep.js';
import { StalePlanError, type ToolResult } from '../../../../../electron/core/tools/tool-def.js';
import { tempWorkspace, toolsWithResolveHooks, type TempWorkspace } from './temp-workspace.js';

async function grep(t: TempWorkspace, args: Record<string, unknown>): Promise<ToolResult> {
  return t.tools.execute(await t.tools.plan('grep', args));
}

async function grepLines(t: TempWorkspace, args: Record<string, unknown>): Promise<string[]> {
  const r = await grep(t, args);
  if (!r.ok) throw new Error(`expected ok, got: ${r.error}`);
  return r.output.split('\n');
}

function matchLines(n: number): string {
  return Array.from({ length: n }, (_, i) => `needle ${i + 1}\n`).join('');
}

describe('grep output', () => {
  it('returns path:line:text with workspace-relative paths', async () => {
    const t = await tempWorkspace();
    await t.put('src/a.ts', 'const x = 1;\nconst needle = 2;\n');
    expect(await grepLines(t, { pattern: 'needle' })).toEqual(['src/a.ts:2:const needle = 2;']);
  });

  it('searches only the given folder, still printing workspace-relative paths', async () => {
    const t = await tempWorkspace();
    await t.put('src/a.ts', 'needle\n');
    await t.put('lib/b.ts', 'needle\n');
    expect(await grepLines(t, { pattern: 'needle', path: 'src' })).toEqual(['src/a.ts:1:needle']);
  });

  it('searches a single file given as the path', async () => {
    const t = await tempWorkspace();
    await t.put('src/a.ts', 'x\nneedle\n');
    expect(await grepLines(t, { pattern: 'needle', path: 'src/a.ts' })).toEqual(['src/a.ts:2:needle']);
  });

  it('says so when nothing matches, which is not an error', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'hay\n');
    expect(await grep(t, { pattern: 'needle' })).toMatchObject({ ok: true, output: 'No matches in ".".' });
  });

  it("returns ripgrep's own message for a bad regular expression", async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'hay\n');
    const r = await grep(t, { pattern: 'a(b' });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/regex parse error[\s\S]*unclosed group/);
  });

  it('matches literally with fixed_string and ignores case with case_insensitive', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'a.b\naxb\nNEEDLE\n');
    expect(await grepLines(t, { pattern: 'a.b', fixed_string: true })).toEqual(['a.txt:1:a.b']);
    expect(await grepLines(t, { pattern: 'needle', case_insensitive: true })).toEqual(['a.txt:3:NEEDLE']);
  });

  it('limits the search to files matching the glob', async () => {
    const t = await tempWorkspace();
    await t.put('a.ts', 'needle\n');
    await t.put('b.md', 'needle\n');
    expect(await grepLines(t, { pattern: 'needle', glob: '*.ts' })).toEqual(['a.ts:1:needle']);
  });

  it('cuts a line at 500 characters and marks the cut', async () => {
    const t = await tempWorkspace();
    await t.put('exact.txt', 'needle' + 'é'.repeat(GREP_LINE_MAX_CHARS - 6) + '\n');
    await t.put('over.txt', 'needle' + 'é'.repeat(GREP_LINE_MAX_CHARS - 5) + '\n');
    await t.put('huge.txt', 'needle' + 'x'.repeat(100_000) + '\n');
    const byFile = Object.fromEntries((await grepLines(t, { pattern: 'needle' })).map((l) => [l.split(':')[0], l]));
    expect(byFile['exact.txt']).toBe(`exact.txt:1:needle${'é'.repeat(GREP_LINE_MAX_CHARS - 6)}`);
    expect(byFile['over.txt']).toBe(`over.txt:1:needle${'é'.repeat(GREP_LINE_MAX_CHARS - 6)}…`);
    expect(byFile['huge.txt']).toBe(`huge.txt:1:needle${'x'.repeat(GREP_LINE_MAX_CHARS - 6)}…`);
  });

  it('drops the carriage return of a CRLF line', async () => {
    const t = await tempWorkspace();
    await t.put('dos.txt', 'needle\r\nnext\r\n');
    expect(await grepLines(t, { pattern: 'needle' })).toEqual(['dos.txt:1:needle']);
  });
});

describe('grep at the 200-match limit', () => {
  it('returns exactly 200 matches with no "more" note', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', matchLines(GREP_MAX_MATCHES));
    const lines = await grepLines(t, { pattern: 'needle' });
    expect(lines).toHaveLength(GREP_MAX_MATCHES);
    expect(lines.join('\n')).not.toContain('more');
  });

  it('returns 199 matches whole', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', matchLines(GREP_MAX_MATCHES - 1));
    expect(await grepLines(t, { pattern: 'needle' })).toHaveLength(GREP_MAX_MATCHES - 1);
  });

  it('returns 200 of 201 matches and says there are more, and how to see them', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', matchLines(GREP_MAX_MATCHES + 1));
    const r = await grep(t, { pattern: 'needle' });
    const lines = r.ok ? r.output.split('\n') : [];
    expect(lines).toHaveLength(GREP_MAX_MATCHES + 1);
    expect(lines.at(-1)).toBe(
      '[grep: the first 200 matching lines are shown, and there are more (not counted). Narrow the pattern, path or glob to see the rest.]',
    );
    expect(r.details).toEqual({ shown: 200, more: true });
  });

  it('says there are more across many files without counting them', async () => {
    const t = await tempWorkspace();
    for (let f = 0; f < 50; f++) await t.put(`d/f${f}.txt`, matchLines(100));
    const r = await grep(t, { pattern: 'needle', path: 'd' });
    expect(r.details).toEqual({ shown: 200, more: true });
    expect(r.ok && r.output).not.toMatch(/stopped early|4800|5000/);
  });
});

describe('grep skips what it should', () => {
  it('never descends into .git, even for hidden files it does search', async () => {
    const t = await tempWorkspace();
    await t.put('.git/config', 'needle\n');
    await t.put('.github/workflow.yml', 'needle\n');
    expect(await grepLines(t, { pattern: 'needle' })).toEqual(['.github/workflow.yml:1:needle']);
  });

  it('refuses a path inside .git', async () => {
    const t = await tempWorkspace();
    await t.put('.git/config', 'needle\n');
    await expect(t.tools.plan('grep', { pattern: 'needle', path: '.git' })).rejects.toThrow(/inside .git/);
  });

  it('keeps .git out even when the glob would match it', async () => {
    const t = await tempWorkspace();
    await t.put('.git/x.txt', 'needle\n');
    await t.put('y.txt', 'needle\n');
    expect(await grepLines(t, { pattern: 'needle', glob: '*.txt' })).toEqual(['y.txt:1:needle']);
  });

  it('skips binary files', async () => {
    const t = await tempWorkspace();
    await t.put('bin.dat', Buffer.from('needle\0needle\n'));
    await t.put('text.txt', 'needle\n');
    expect(await grepLines(t, { pattern: 'needle' })).toEqual(['text.txt:1:needle']);
  });

  it('does not follow a symlinked folder that points out of the workspace', async () => {
    const t = await tempWorkspace();
    await t.put(path.join(t.parent, 'outside/secret.txt'), 'needle\n');
    await symlink(path.join(t.parent, 'outside'), path.join(t.dir, 'out'));
    await t.put('in.txt', 'needle\n');
    expect(await grepLines(t, { pattern: 'needle' })).toEqual(['in.txt:1:needle']);
  });
});

describe('grep and .gitignore', () => {
  it('follows the workspace .gitignore when the workspace is not a git repository', async () => {
    const t = await tempWorkspace();
    await t.put('.gitignore', 'ignored/\n*.log\n');
    await t.put('ignored/a.txt', 'needle\n');
    await t.put('b.log', 'needle\n');
    await t.put('kept.txt', 'needle\n');
    expect(await grepLines(t, { pattern: 'needle' })).toEqual(['kept.txt:1:needle']);
  });

  it('follows the workspace .gitignore, anchored patterns included, when searching a subfolder', async () => {
    const t = await tempWorkspace();
    await t.put('.gitignore', '/src/gen/\n*.log\n');
    await t.put('src/gen/a.ts', 'needle\n');
    await t.put('src/b.log', 'needle\n');
    await t.put('src/c.ts', 'needle\n');
    expect(await grepLines(t, { pattern: 'needle', path: 'src' })).toEqual(['src/c.ts:1:needle']);
  });

  it('ignores a .gitignore above a workspace that is not a git repository', async () => {
    const t = await tempWorkspace();
    await t.put(path.join(t.parent, '.gitignore'), '*\n');
    await t.put('sub/a.txt', 'needle\n');
    expect(await grepLines(t, { pattern: 'needle' })).toEqual(['sub/a.txt:1:needle']);
    expect(await grepLines(t, { pattern: 'needle', path: 'sub' })).toEqual(['sub/a.txt:1:needle']);
  });

  it('ignores a .gitignore above a workspace that is a git repository of its own', async () => {
    const t = await tempWorkspace();
    await t.put(path.join(t.parent, '.gitignore'), '*\n');
    await mkdir(path.join(t.dir, '.git'));
    await t.put('.gitignore', '*.log\n');
    await t.put('a.txt', 'needle\n');
    await t.put('b.log', 'needle\n');
    expect(await grepLines(t, { pattern: 'needle' })).toEqual(['a.txt:1:needle']);
  });

  it('follows the .gitignore of the git repository the workspace sits in, as git does', async () => {
    const t = await tempWorkspace();
    await mkdir(path.join(t.parent, '.git'));
    await t.put(path.join(t.parent, '.gitignore'), 'dist/\n');
    await t.put('dist/out.js', 'needle\n');
    await t.put('src.js', 'needle\n');
    expect(await grepLines(t, { pattern: 'needle' })).toEqual(['src.js:1:needle']);
  });
});

describe('grep cancelled', () => {
  it('reports a search stopped by its abort signal as an error result', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'needle\n');
    const plan = await t.tools.plan('grep', { pattern: 'needle' });
    const r = await t.tools.execute(plan, { signal: AbortSignal.abort() });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/grep was stopped/);
  });
});

describe('grep outside the workspace', () => {
  it('plans an absolute folder outside as an outside read and prints absolute paths', async () => {
    const t = await tempWorkspace();
    const outside = path.join(t.parent, 'other');
    await t.put(path.join(outside, 'a.txt'), 'needle\n');
    const plan = await t.tools.plan('grep', { pattern: 'needle', path: outside });
    expect(plan).toMatchObject({ kind: 'read', target: { inside: false, real: outside } });
    expect(await t.tools.execute(plan)).toMatchObject({ ok: true, output: `${outside}/a.txt:1:needle` });
  });

  it('refuses a missing path', async () => {
    const t = await tempWorkspace();
    await expect(t.tools.plan('grep', { pattern: 'x', path: 'nope' })).rejects.toThrow(/"nope" does not exist/);
  });
});

describe('grep and what it cannot search', () => {
  it('refuses a FIFO given as the path while planning', async () => {
    const t = await tempWorkspace();
    execFileSync('mkfifo', [path.join(t.dir, 'pipe')]);
    await expect(t.tools.plan('grep', { pattern: 'x', path: 'pipe' })).rejects.toThrow(
      /grep: "pipe" is neither a regular file nor a folder/,
    );
  });

  it('stops at its time limit when ripgrep blocks on a FIFO named .gitignore, and says it stopped early', async () => {
    const t = await tempWorkspace([createGrepTool({ timeLimitMs: 300 })]);
    await t.put('sub/a.txt', 'needle\n');
    execFileSync('mkfifo', [path.join(t.dir, 'sub', '.gitignore')]);
    const r = await grep(t, { pattern: 'needle' });
    expect(r.ok).toBe(true);
    expect(r.ok && r.output).toContain('[grep: stopped early: the search took longer than 0.3 s;');
    expect(r.details).toMatchObject({ stoppedEarly: true });
  });

  it('kills ripgrep and says so when the call is aborted', async () => {
    const t = await tempWorkspace();
    await t.put('sub/a.txt', 'needle\n');
    // ripgrep would block on this forever, so only the abort can end the search.
    execFileSync('mkfifo', [path.join(t.dir, 'sub', '.gitignore')]);
    const plan = await t.tools.plan('grep', { pattern: 'needle' });
    const abort = new AbortController();
    const running = t.tools.execute(plan, { signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    expect(await running).toEqual({ ok: false, error: 'grep was stopped: the call was cancelled' });
  });

  it('reads "every file filtered out" as no matches, with a hint about what was skipped', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'needle\n');
    const r = await grep(t, { pattern: 'needle', glob: '*.md' });
    expect(r.ok).toBe(true);
    const lines = r.ok ? r.output.split('\n') : [];
    expect(lines[0]).toBe('No matches in ".".');
    expect(lines[1]).toMatch(/^\[grep: no file was searched: every file there was skipped \(ignored by .gitignore/);
    expect(r.ok && r.output).not.toContain('rg:');
  });
});

describe('grep when the path is swapped during execute', () => {
  it('drops the answer when the searched file became a link to outside after the re-resolve', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'hay\n');
    await t.put(path.join(t.parent, 'outside.txt'), 'needle\n');
    const plan = await t.tools.plan('grep', { pattern: 'needle', path: 'a.txt' });
    const tools = toolsWithResolveHooks(t, {
      after: async (n) => {
        if (n !== 1) return;
        await unlink(path.join(t.dir, 'a.txt'));
        await symlink(path.join(t.parent, 'outside.txt'), path.join(t.dir, 'a.txt'));
      },
    });
    await expect(tools.execute(plan)).rejects.toBeInstanceOf(StalePlanError);
  });
});
