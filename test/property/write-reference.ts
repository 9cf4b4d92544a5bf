/**
 * What a write call should put on disk, from its arguments and the bytes there before
 * (SPEC §2): write_file's content as UTF-8; search_replace's exact, non-overlapping
 * replacement, once unless replace_all. null when the call cannot write at all.
 */
import { createHash } from 'node:crypto';

export function expectedWrite(tool: string, args: unknown, before: Buffer | null): Buffer | null {
  const a = (args ?? {}) as Record<string, unknown>;
  if (tool === 'write_file') return typeof a.content === 'string' ? Buffer.from(a.content, 'utf8') : null;
  if (tool !== 'search_replace' || before === null) return null;
  if (typeof a.old !== 'string' || typeof a.new !== 'string' || a.old === '') return null;
  const text = before.toString('latin1');
  const old = Buffer.from(a.old, 'utf8').toString('latin1');
  const count = text.split(old).length - 1;
  if (count === 0 || (count > 1 && a.replace_all !== true)) return null;
  return Buffer.from(text.split(old).join(Buffer.from(a.new, 'utf8').toString('latin1')), 'latin1');
}

/** SHA-256 hex of a file's bytes, or "absent". */
export function digestOf(bytes: Buffer | null): string {
  return bytes === null ? 'absent' : createHash('sha256').update(bytes).digest('hex');
}
