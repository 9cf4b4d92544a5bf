/**
 * meta.json: what must be known about a session without folding its log (SPEC §6): id,
 * title, workspace, model, times, and the allow_session grants. Written atomically, so a
 * reader sees the old file or the new one, never half; read through a schema, so a
 * damaged file is a clear error that names the file rather than a crash further on.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AGENT_IDS, type SessionAgent } from '../../../shared/agents.js';
import type { Grant } from '../../../shared/cards.js';
import { modelConfigSchema, type ModelConfig } from '../../../shared/contract.js';
import { writeFileAtomic } from '../files/atomic-file.js';
import type { ErrorKind } from '../error-kind.js';

export const META_FILE = 'meta.json';

/** The model the session's last turn ran with: the whole config, base URL included. */
export type ModelRef = ModelConfig;

export interface SessionMeta {
  id: string;
  title: string;
  /** Absolute path of the workspace folder. */
  workspace: string;
  /** null when no model was configured when the session started. */
  model: ModelRef | null;
  /** ISO-8601. */
  createdAt: string;
  updatedAt: string;
  grants: Grant[];
  /** The external agent that drives the session, at the version it was opened with (SPEC §14). */
  agent?: SessionAgent;
}

const grantSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('write'), path: z.string().min(1) }),
  z.object({ kind: z.literal('read'), tool: z.enum(['read_file', 'grep', 'list_dir']), path: z.string().min(1) }),
  z.object({
    kind: z.literal('command'),
    argv: z.array(z.string()).min(1),
    cwd: z.string().min(1),
    // A command grant is exact in its flags (SPEC §9); kept, not stripped, across a restart.
    network: z.literal(true).optional(),
    unconfined: z.literal(true).optional(),
  }),
  // MCP grants are bound to a fingerprint (SPEC §10): a changed tool or config matches none.
  z.object({ kind: z.literal('mcp'), tool: z.string().min(1), args: z.string(), fingerprint: z.string().min(1) }),
  z.object({
    kind: z.literal('mcp_server'),
    server: z.string().min(1),
    source: z.string().min(1),
    fingerprint: z.string().min(1),
  }),
  z.object({ kind: z.literal('agent_start'), agent: z.string().min(1), fingerprint: z.string().min(1) }),
  z.object({
    kind: z.literal('agent_ask'),
    agent: z.string().min(1),
    toolKind: z.string().min(1),
    title: z.string(),
  }),
]);

export const sessionMetaSchema: z.ZodType<SessionMeta> = z.object({
  id: z.string().min(1),
  title: z.string(),
  workspace: z.string().min(1),
  model: modelConfigSchema.nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  grants: z.array(grantSchema),
  agent: z.object({ id: z.enum(AGENT_IDS), label: z.string().min(1), version: z.string().min(1) }).optional(),
});

/** meta.json is missing, not JSON, or not a session's meta. */
export class MetaError extends Error {
  /** Damage on disk: the person is told, and it is reported like a fault of the app. */
  readonly errorKind: ErrorKind = 'internal';
  override readonly name = 'MetaError';
  constructor(
    readonly file: string,
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`${file}: ${problem}`, options);
  }
}

export async function readMeta(sessionDir: string): Promise<SessionMeta> {
  const file = path.join(sessionDir, META_FILE);
  const text = await fs.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    const problem = err.code === 'ENOENT' ? 'the session has no meta.json' : `cannot be read (${err.code})`;
    throw new MetaError(file, problem, { cause: err });
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new MetaError(file, `is not valid JSON (${(err as Error).message})`, { cause: err });
  }
  const result = sessionMetaSchema.safeParse(json);
  if (!result.success) {
    throw new MetaError(file, `is not a valid session meta:\n${z.prettifyError(result.error)}`, {
      cause: result.error,
    });
  }
  return result.data;
}

/** Validates, then replaces meta.json atomically. Invalid meta is never written. */
export async function writeMeta(sessionDir: string, meta: SessionMeta): Promise<void> {
  const file = path.join(sessionDir, META_FILE);
  const result = sessionMetaSchema.safeParse(meta);
  if (!result.success) {
    throw new MetaError(file, `refusing to write an invalid session meta:\n${z.prettifyError(result.error)}`);
  }
  await writeFileAtomic(file, `${JSON.stringify(result.data, null, 2)}\n`);
}
