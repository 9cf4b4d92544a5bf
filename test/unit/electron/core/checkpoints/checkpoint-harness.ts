/**
 * For the checkpoint tests that drive a whole core: every card answered Allow once as it
 * goes up, turns run to their end, and a workspace hashed file by file (with modes and
 * link targets) so "back byte for byte" is an exact comparison.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Harness } from '../core-harness.js';

/** Answers every card of every session Allow once. Returns the unsubscribe. */
export function allowEveryCard(h: Harness): () => void {
  return h.core.host.subscribe((push) => {
    if (push.name !== 'session.event' || push.payload.event.type !== 'card') return;
    const { id } = push.payload;
    const { cardId } = push.payload.event;
    void h.core.host.call('card.answer', { id, cardId, answer: 'allow_once' });
  });
}

/** Sends a message and waits for its turn to end; returns the turn's id. */
export async function runTurn(h: Harness, id: string, text: string): Promise<string> {
  const since = (await h.events(id)).at(-1)?.seq ?? 0;
  await h.call('session.send', { id, text });
  return (await h.event(id, 'turn_ended', (e) => e.seq > since)).turnId;
}

/** Every file, link and folder under root (with `.git` only when asked), as path → sha256/mode/link target. */
export async function hashTree(root: string, opts: { withGit?: boolean } = {}): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  async function walk(dir: string): Promise<void> {
    for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(root, full);
      if (!opts.withGit && rel === '.git') continue;
      const st = await fs.lstat(full);
      if (st.isSymbolicLink()) out[rel] = `link ${await fs.readlink(full)}`;
      else if (st.isDirectory()) {
        out[`${rel}/`] = `dir ${(st.mode & 0o777).toString(8)}`;
        await walk(full);
      } else {
        const digest = createHash('sha256')
          .update(await fs.readFile(full))
          .digest('hex');
        out[rel] = `${(st.mode & 0o777).toString(8)} ${digest}`;
      }
    }
  }
  await walk(root);
  return out;
}
