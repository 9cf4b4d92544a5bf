/**
 * What an old tool result (or a large argument of an old call) becomes once masked: a
 * short, deterministic stub that names the call and how to see the content again. The
 * same event always gives the same bytes, so a masked prefix stays cacheable.
 */
import { MASK_MIN_BYTES } from '../../../shared/limits.js';
import type { ResultHolds } from '../tool-shape/tool-shown.js';

/** A result at most this large is kept: its stub would save nothing. */
export function worthMasking(text: string): boolean {
  return Buffer.byteLength(text) > MASK_MIN_BYTES;
}

export function maskedResult(tool: string, holds: ResultHolds | undefined, output: string, seq: number): string {
  const bytes = Buffer.byteLength(output);
  const again = holds?.commandOutput
    ? 'Run the command again (it asks the user again) only if you need its output.'
    : `Call ${tool} again with the same arguments if you need it.`;
  return `[Result hidden to keep the context small: this ${tool} result (${bytes.toLocaleString('en-US')} bytes, log seq ${seq}) is no longer shown. ${again}]`;
}

/** A call's arguments with every long string replaced by a stub; the shape (and every short field) stays. */
export function maskedArgs(args: unknown): unknown {
  if (typeof args === 'string') {
    return worthMasking(args)
      ? `[${Buffer.byteLength(args).toLocaleString('en-US')} bytes hidden to keep the context small]`
      : args;
  }
  if (Array.isArray(args)) return args.map(maskedArgs);
  if (args !== null && typeof args === 'object') {
    return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, maskedArgs(v)]));
  }
  return args;
}
