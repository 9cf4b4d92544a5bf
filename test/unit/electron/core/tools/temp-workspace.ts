/**
 * A real workspace folder in os.tmpdir() for one test, removed when the test finishes.
 * It sits in a parent folder of its own, so a test can put things "outside" it.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { Tools } from '../../../../../electron/core/tools/tools.js';
import type { ToolContext, ToolDef } from '../../../../../electron/core/tools/tool-def.js';
import { unconfined } from '../../../../support/unconfined.js';

export interface TempWorkspace {
  /** The folder holding the workspace; anything put here is outside it. */
  parent: string;
  /** The workspace root (real path). */
  dir: string;
  ctx: ToolContext;
  tools: Tools;
  /** Writes a file below the workspace (or below `parent` for an absolute path), creating folders. */
  put(rel: string, content: string | Buffer): Promise<string>;
  /** Reads a file below the workspace, or null if it is not there. */
  get(rel: string): Promise<Buffer | null>;
}

export async function tempWorkspace(defs?: ToolDef[]): Promise<TempWorkspace> {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-tools-'));
  onTestFinished(() => rm(parent, { recursive: true, force: true }));
  await mkdir(path.join(parent, 'ws'));
  const workspace = await Workspace.open(path.join(parent, 'ws'));
  const ctx: ToolContext = { workspace, commandEnv: {}, sandbox: unconfined() };
  const dir = workspace.root;
  const put = async (rel: string, content: string | Buffer) => {
    const file = path.resolve(dir, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
    return file;
  };
  const get = (rel: string) => readFile(path.resolve(dir, rel)).catch(() => null);
  return { parent: path.dirname(dir), dir, ctx, tools: new Tools(ctx, defs), put, get };
}

/** Run around the workspace's n-th resolve (1-based) while a plan executes. */
export interface ResolveHooks {
  before?: (n: number) => Promise<void>;
  after?: (n: number) => Promise<void>;
}

/**
 * Tools over the same workspace whose resolve runs the hooks, so a test can swap a path
 * at an exact point of an execute: between its re-resolve and its open, say.
 */
export function toolsWithResolveHooks(t: TempWorkspace, hooks: ResolveHooks, defs?: ToolDef[]): Tools {
  const real = t.ctx.workspace;
  let calls = 0;
  const workspace = new Proxy(real, {
    get(target, prop) {
      if (prop === 'resolve') {
        return async (input: string) => {
          const n = ++calls;
          await hooks.before?.(n);
          const resolved = await target.resolve(input);
          await hooks.after?.(n);
          return resolved;
        };
      }
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return new Tools({ ...t.ctx, workspace }, defs);
}
