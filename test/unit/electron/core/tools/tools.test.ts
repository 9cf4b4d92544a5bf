import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolError } from '../../../../../electron/core/tools/tool-def.js';
import { tempWorkspace } from './temp-workspace.js';

async function planError(promise: Promise<unknown>): Promise<ToolError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

describe('Tools.definitions', () => {
  it('offers the six workspace tools, run included, each with a description', async () => {
    const t = await tempWorkspace();
    const defs = t.tools.definitions();
    expect(defs.map((d) => d.name)).toEqual(['read_file', 'grep', 'list_dir', 'search_replace', 'write_file', 'run']);
    for (const def of defs) expect(def.description.length).toBeGreaterThan(80);
  });

  it('gives every tool a strict schema that converts to JSON Schema refusing extra fields', async () => {
    const t = await tempWorkspace();
    for (const def of t.tools.definitions()) {
      expect(z.toJSONSchema(def.schema)).toMatchObject({ type: 'object', additionalProperties: false });
    }
  });
});

describe('Tools.plan argument errors', () => {
  it('refuses an unknown tool and lists the known ones', async () => {
    const t = await tempWorkspace();
    const err = await planError(t.tools.plan('delete_everything', {}));
    expect(err.message).toBe(
      'unknown tool "delete_everything"; the tools are: read_file, grep, list_dir, search_replace, write_file, run',
    );
  });

  it('names a field of the wrong type', async () => {
    const t = await tempWorkspace();
    const err = await planError(t.tools.plan('read_file', { path: 42 }));
    expect(err.message).toBe('read_file: invalid arguments: "path": expected string, received number');
  });

  it('names a missing field', async () => {
    const t = await tempWorkspace();
    const err = await planError(t.tools.plan('grep', { path: 'src' }));
    expect(err.message).toBe('grep: invalid arguments: "pattern" is required (string)');
  });

  it('names an unknown field', async () => {
    const t = await tempWorkspace();
    const err = await planError(t.tools.plan('list_dir', { path: '.', recursive: true }));
    expect(err.message).toBe('list_dir: invalid arguments: unknown field "recursive"');
  });

  it('names every field at fault in one message', async () => {
    const t = await tempWorkspace();
    const err = await planError(t.tools.plan('search_replace', { path: 'a', old: 1, extra: 1, more: 2 }));
    expect(err.message).toContain('"old": expected string, received number');
    expect(err.message).toContain('"new" is required (string)');
    expect(err.message).toContain('unknown fields "extra", "more"');
  });

  it('refuses arguments that are not an object', async () => {
    const t = await tempWorkspace();
    const err = await planError(t.tools.plan('read_file', 'a.txt'));
    expect(err.message).toBe('read_file: invalid arguments: arguments must be a JSON object, received string');
  });

  it('refuses read_file with both offset and line', async () => {
    const t = await tempWorkspace();
    const err = await planError(t.tools.plan('read_file', { path: 'a', offset: 0, line: 1 }));
    expect(err.message).toContain('give either "offset" or "line", not both');
  });

  it('refuses a negative offset and a line of 0, naming the field', async () => {
    const t = await tempWorkspace();
    expect((await planError(t.tools.plan('read_file', { path: 'a', offset: -1 }))).message).toMatch(
      /"offset": Too small/,
    );
    expect((await planError(t.tools.plan('read_file', { path: 'a', line: 0 }))).message).toMatch(/"line": Too small/);
  });

  it('changes nothing on disk when a write has bad arguments', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'keep');
    await planError(t.tools.plan('write_file', { path: 'new.txt', content: 5 }));
    await planError(t.tools.plan('write_file', { path: 'new.txt' }));
    await planError(t.tools.plan('write_file', { path: 'new.txt', content: 'x', mode: 0o777 }));
    await planError(t.tools.plan('search_replace', { path: 'a.txt', old: 'keep', new: 'gone', all: true }));
    expect(await readdir(t.dir)).toEqual(['a.txt']);
    expect((await t.get('a.txt'))?.toString()).toBe('keep');
  });
});

describe('Tools.plan path errors', () => {
  it('turns a .. escape into a ToolError that says dotdot', async () => {
    const t = await tempWorkspace();
    const err = await planError(t.tools.plan('read_file', { path: 'a/../../x' }));
    expect(err.message).toBe('refused: "a/../../x" uses ".." to walk out of the workspace');
  });

  it('turns a NUL byte in a path into a ToolError', async () => {
    const t = await tempWorkspace();
    const err = await planError(t.tools.plan('list_dir', { path: 'a\0b' }));
    expect(err.message).toContain('NUL');
  });
});

describe('Tools.execute', () => {
  it('returns an error result, not a throw, when a planned file vanished before the read', async () => {
    const t = await tempWorkspace();
    await t.put('a.txt', 'x');
    const plan = await t.tools.plan('read_file', { path: 'a.txt' });
    await rm(path.join(t.dir, 'a.txt'));
    const r = await t.tools.execute(plan);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toBe('read_file: "a.txt" does not exist any more');
  });
});
