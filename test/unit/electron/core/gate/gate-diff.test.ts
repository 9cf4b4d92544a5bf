/**
 * A write card's diff (SPEC §3, Diffs): whole up to 64 KiB of diff text, its first 400
 * lines above that with the path and sizes; the proposal's every byte is kept in a blob
 * the card names.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIFF_TRUNCATED_LINES, DIFF_WHOLE_MAX_BYTES, WRITE_MAX_BYTES } from '../../../../../shared/limits.js';
import type { WriteCardBody } from '../../../../../shared/cards.js';
import type { Planner } from '../../../../../electron/core/gate/permission-gate.js';
import { GateHarness } from './gate-harness.js';

const header = (abs: string) => abs.replace(/^\/+/, '');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * The content of a new file whose creation diff is exactly `diffBytes` long, and that
 * diff: the two headers, one hunk header, then every line with a "+".
 */
function creationOfDiffSize(abs: string, diffBytes: number): { content: string; diff: string } {
  const n = 1000;
  const head = `--- /dev/null\n+++ b/${header(abs)}\n@@ -0,0 +1,${n} @@\n`;
  const contentBytes = diffBytes - Buffer.byteLength(head) - n;
  const per = Math.floor(contentBytes / n);
  const lines = Array.from({ length: n - 1 }, (_, i) => `${String(i).padStart(4, '0')}${'a'.repeat(per - 5)}\n`);
  lines.push(`${'z'.repeat(contentBytes - per * (n - 1) - 1)}\n`);
  const content = lines.join('');
  return { content, diff: head + lines.map((l) => `+${l}`).join('') };
}

function firstLines(text: string, count: number): string {
  return text
    .split(/(?<=\n)/)
    .slice(0, count)
    .join('');
}

async function cardFor(h: GateHarness, args: { path: string; content: string }, planner?: Planner) {
  const s = await h.session(planner);
  const pending = s.start('write_file', args);
  const card = await pending.card();
  return { s, pending, card, body: card.body as WriteCardBody };
}

describe('the diff on a write card', () => {
  it('keeps a diff of exactly 64 KiB whole', async () => {
    const h = await GateHarness.open();
    const abs = path.join(h.ws, 'edge.txt');
    const { content, diff } = creationOfDiffSize(abs, DIFF_WHOLE_MAX_BYTES);

    const { body } = await cardFor(h, { path: 'edge.txt', content });

    expect(Buffer.byteLength(body.diff)).toBe(DIFF_WHOLE_MAX_BYTES);
    expect(body.diff).toBe(diff);
    expect(body).toMatchObject({
      diffTruncated: false,
      diffBytes: DIFF_WHOLE_MAX_BYTES,
      proposalBytes: Buffer.byteLength(content),
      beforeBytes: null,
      creates: true,
      path: abs,
    });
  });

  it('cuts a diff one byte over 64 KiB to its first 400 lines, with the path and both sizes', async () => {
    const h = await GateHarness.open();
    const abs = path.join(h.ws, 'edge.txt');
    const { content, diff } = creationOfDiffSize(abs, DIFF_WHOLE_MAX_BYTES + 1);

    const { body } = await cardFor(h, { path: 'edge.txt', content });

    expect(body.diff).toBe(firstLines(diff, DIFF_TRUNCATED_LINES));
    expect(body.diff.split('\n')).toHaveLength(DIFF_TRUNCATED_LINES + 1);
    expect(body).toMatchObject({
      diffTruncated: true,
      diffBytes: DIFF_WHOLE_MAX_BYTES + 1,
      proposalBytes: Buffer.byteLength(content),
      path: abs,
    });
  });

  it('cuts the diff of a whole 256 KiB rewrite, keeps the proposal byte for byte, and writes exactly it', async () => {
    const h = await GateHarness.open();
    const line = (word: string, i: number) => `${word} line ${String(i).padStart(6, '0')} ${'.'.repeat(40)}\n`;
    const count = Math.floor(WRITE_MAX_BYTES / line('old', 0).length);
    const before = Array.from({ length: count }, (_, i) => line('old', i)).join('');
    const proposal = Array.from({ length: count }, (_, i) => line('new', i)).join('');
    await h.put('big.txt', before);

    const { s, pending, card, body } = await cardFor(h, { path: 'big.txt', content: proposal });

    expect(body.diffTruncated).toBe(true);
    expect(body.diff.split('\n')).toHaveLength(DIFF_TRUNCATED_LINES + 1);
    expect(body.diff.startsWith(`--- a/${header(path.join(h.ws, 'big.txt'))}\n`)).toBe(true);
    expect(body.diffBytes).toBeGreaterThan(2 * proposal.length);
    expect(body.proposalBytes).toBe(proposal.length);
    expect(body.beforeBytes).toBe(before.length);
    const blob = await s.record.blobs.get(body.proposalBlob);
    expect(blob.equals(Buffer.from(proposal))).toBe(true);

    s.gate.answer(card.cardId, 'allow_once');
    expect(await pending.result).toMatchObject({ ok: true });
    expect(await h.read('big.txt')).toBe(proposal);
  });

  it('names in the card a blob holding the proposal exactly, bytes that are not UTF-8 included', async () => {
    const h = await GateHarness.open();
    await h.put('crlf.txt', 'a\r\nb\r\n');
    const proposal = 'a\r\nb changed\r\n\u00e9\u{1f600}\n';

    const { s, body } = await cardFor(h, { path: 'crlf.txt', content: proposal });

    const blob = await s.record.blobs.get(body.proposalBlob);
    expect(blob.equals(Buffer.from(proposal, 'utf8'))).toBe(true);
    expect(body.proposalBlob).toBe(sha256(Buffer.from(proposal, 'utf8')));
  });
});

describe('a proposal far over the card limits', () => {
  it('never reaches a card through write_file: 1 MiB is refused to the model by the write limit', async () => {
    const h = await GateHarness.open();
    const s = await h.session();

    const result = await s.run('write_file', { path: 'huge.txt', content: 'x'.repeat(1024 * 1024) });

    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain(`files are written only up to ${WRITE_MAX_BYTES} bytes`);
    expect(s.appended).toEqual([]);
    expect(await h.read('huge.txt')).toBeNull();
  });

  it('still gets a 400-line card and a blob of every byte when a plan carries 1 MiB', async () => {
    const h = await GateHarness.open();
    await h.put('huge.txt', Array.from({ length: 100 }, (_, i) => `before ${i}\n`).join(''));
    const proposal = Buffer.from(
      Array.from({ length: 16 * 1024 }, (_, i) => `after ${String(i).padStart(8, '0')} ${'-'.repeat(48)}\n`).join(''),
    );
    expect(proposal.length).toBe(1024 * 1024);
    // The real tools, with a plan whose proposal is past write_file's own limit.
    const oversized: Planner = {
      plan: async (name, args) => {
        const plan = await h.tools.plan(name, args);
        return plan.kind === 'write' ? { ...plan, after: proposal } : plan;
      },
      execute: (plan, exec) => h.tools.execute(plan, exec),
    };

    const { s, pending, card, body } = await cardFor(h, { path: 'huge.txt', content: 'small\n' }, oversized);

    expect(body.diffTruncated).toBe(true);
    expect(body.diff.split('\n')).toHaveLength(DIFF_TRUNCATED_LINES + 1);
    expect(body.proposalBytes).toBe(1024 * 1024);
    expect(body.diffBytes).toBeGreaterThan(1024 * 1024);
    expect(body.path).toBe(path.join(h.ws, 'huge.txt'));
    const blob = await s.record.blobs.get(body.proposalBlob);
    expect(blob.equals(proposal)).toBe(true);
    // The event line stays small: the bytes are in the blob, not inline.
    const line = JSON.stringify((await s.record.log.readEvents()).find((e) => e.type === 'card'));
    expect(line.length).toBeLessThan(DIFF_WHOLE_MAX_BYTES);

    s.gate.answer(card.cardId, 'allow_once');
    expect(await pending.result).toMatchObject({ ok: true });
    expect((await h.read('huge.txt')) === proposal.toString()).toBe(true);
  });
});
