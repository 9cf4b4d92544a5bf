/**
 * The last lines an agent wrote on stderr, kept bounded, for "the agent stopped: …". An
 * agent may print its own environment or a failed request with its key in it; the key's
 * value never reaches a card or a log, so it is taken out here.
 */
import type { Readable } from 'node:stream';

/** Bytes kept of the end of stderr. */
const KEPT_BYTES = 16 * 1024;
/** Lines shown. */
const SHOWN_LINES = 20;

export interface StderrTail {
  text(): string;
}

export function keepStderrTail(stream: Readable | null, secrets: readonly string[]): StderrTail {
  let kept = '';
  let cut = false;
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    kept += chunk;
    if (kept.length > KEPT_BYTES) {
      kept = kept.slice(-KEPT_BYTES);
      cut = true;
    }
  });
  stream?.on('error', () => {});
  return {
    text: () => {
      // A line cut at the front may hold the end of a key, too short to be recognised: it goes.
      let text = cut ? kept.slice(kept.indexOf('\n') + 1) : kept;
      // Replaced on the whole kept text, so a key split across two chunks is still found.
      for (const secret of secrets) if (secret) text = text.split(secret).join('[key]');
      return text.trimEnd().split('\n').slice(-SHOWN_LINES).join('\n');
    },
  };
}
