/**
 * From a card event pushed over the WebSocket to the card painted, in Chromium through the
 * real web host: a 64 KiB diff (target <= 150 ms) and a truncated diff of about 1 MiB (cut to
 * its first 400 lines). write_file refuses proposals over 256 KiB (WRITE_MAX_BYTES), so a
 * 1 MiB proposal cannot reach a card: the big case replaces a 1 MiB file with a 256 KiB one.
 * The page timestamps the push as its message arrives and the second animation frame after
 * the card's region shows the first changed line (card-paint-probe).
 * References: appending the same number of plain-text rows to the same page, to the frame
 * painted; and diff2html's whole side-by-side HTML of the same diff (the approach the cards avoid). Median over several cards; the first card of each kind (cold: lazy chunks, JIT)
 * is reported on its own.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { startFakeModel } from '../fake-model/server.js';
import { fakeModelConfig } from '../e2e/harness/temp-folders.js';
import { writeCardLabel } from '../e2e/harness/gatehouse-page.js';
import { waitUntil } from '../e2e/harness/wait-until.js';
import { REPO_ROOT } from '../e2e/harness/repo-root.js';
import { allLoggedEvents } from '../e2e/harness/session-logs.js';
import { cardPaintProbe, plainRowsPaint, wholeDiff2HtmlPaint, type CardTiming } from './window/card-paint-probe.js';
import { median, startWindowRig } from './window/window-rig.js';
import { sampleLines } from './window/sample-lines.js';

const CARDS_PER_KIND = 6;
const TARGET_MS = 150;
const MARKER = 'CHANGED line 0003';

// 1080 lines with every 7th changed: one hunk of just under 64 KiB (checked below from the log).
const MID_OLD = sampleLines(1080, () => false);
const MID_NEW = sampleLines(1080, (i) => i % 7 === 3);
// A 1 MiB file rewritten to the largest proposal allowed: the card shows the first 400 lines.
const BIG_OLD = sampleLines(17_000, () => false).slice(0, 1024 * 1024);
const BIG_NEW = sampleLines(17_000, (i) => i % 7 === 3).slice(0, 256 * 1024);

const fake = await startFakeModel({ keepBodies: false });
const rig = await startWindowRig({ model: fakeModelConfig(fake.openaiBaseURL), initScripts: [cardPaintProbe(MARKER)] });
try {
  const files: Record<string, string> = {};
  for (let i = 0; i < CARDS_PER_KIND; i++) {
    files[`mid${i}.txt`] = MID_OLD;
    files[`big${i}.txt`] = BIG_OLD;
  }
  const ws = await rig.folders.workspace('bench-ws', files);
  const order = Object.keys(files).sort();
  fake.enqueue(
    ...order.map((name) => ({
      toolCalls: [{ name: 'write_file', input: { path: name, content: name.startsWith('mid') ? MID_NEW : BIG_NEW } }],
    })),
    { text: 'All cards seen.' },
  );
  await rig.ui.openWorkspace(ws);
  await rig.ui.send('Propose every write');

  const timings: Record<string, CardTiming> = {};
  for (const name of order) {
    const file = path.join(ws, name);
    timings[name] = await waitUntil(
      () => rig.ui.page.evaluate(`window.__gatehouseBench.cards[${JSON.stringify(file)}]`) as Promise<CardTiming>,
      (t) => t?.paintedAt !== undefined,
      `the card for ${name} painted`,
      120_000,
    );
    await rig.ui.answer(await rig.ui.waitForCard(writeCardLabel(ws, name)), 'Deny');
  }

  // diff2html's browser bundle, for the second reference (evaluated over CDP, so the page's CSP does not apply).
  await rig.ui.page.evaluate(
    await fs.readFile(path.join(REPO_ROOT, 'node_modules/diff2html/bundles/js/diff2html.min.js'), 'utf8'),
  );
  const cardEvents = (await allLoggedEvents(rig.folders.dataDir)).flatMap((e) =>
    e.type === 'card' && e.body.kind === 'write' ? [{ cardId: e.cardId, body: e.body }] : [],
  );
  const cards = cardEvents.map((e) => e.body);
  // The renderer's own User Timing measure (store got the event -> second frame after the card mounted).
  const ownMeasures = (await rig.ui.page.evaluate(
    `Object.fromEntries(performance.getEntriesByType('measure').filter((m) => m.name.startsWith('gatehouse:card:')).map((m) => [m.name.slice(15), m.duration]))`,
  )) as Record<string, number>;
  for (const kind of ['mid', 'big'] as const) {
    const body = cards.find((b) => path.basename(b.path).startsWith(kind))!;
    const rows = body.diff.split('\n').length;
    const whole = [];
    for (let i = 0; i < 3; i++) whole.push((await rig.ui.page.evaluate(wholeDiff2HtmlPaint(body.diff))) as number);
    const reference = [];
    for (let i = 0; i < 5; i++)
      reference.push((await rig.ui.page.evaluate(plainRowsPaint(rows, 'line 0000: the quick brown fox'))) as number);
    const samples = order.filter((n) => n.startsWith(kind)).map((n) => timings[n]!.paintedAt! - timings[n]!.pushAt);
    const [cold, ...warm] = samples;
    const ours = median(warm);
    const ref = median(reference);
    const what =
      kind === 'mid'
        ? `64 KiB diff (diff ${body.diffBytes} bytes, ${rows} lines, truncated: ${body.diffTruncated})`
        : `1 MiB file -> ${body.proposalBytes}-byte proposal (diff cut to ${rows} lines of ${body.diffBytes} bytes, truncated: ${body.diffTruncated})`;
    const own = cardEvents
      .filter((e) => path.basename(e.body.path).startsWith(kind))
      .map((e) => ownMeasures[e.cardId])
      .filter((d): d is number => d !== undefined);
    console.log(
      own.length > 1
        ? `  renderer's own measure (gatehouse:card:<id>, store -> painted): median ${median(own.slice(1)).toFixed(1)} ms over ${own.length - 1} cards`
        : "  renderer's own measure (gatehouse:card:<id>): none recorded (nothing calls markCardEvent yet)",
    );
    console.log(
      `card push -> painted, ${what}: median ${ours.toFixed(1)} ms over ${warm.length} cards (first card ${cold!.toFixed(1)} ms); ` +
        `reference ${rows} plain-text rows ${ref.toFixed(1)} ms, ratio ${(ours / ref).toFixed(2)}x; ` +
        `diff2html's whole side-by-side HTML ${median(whole).toFixed(1)} ms, ratio ${(ours / median(whole)).toFixed(2)}x; ` +
        `target <= ${TARGET_MS} ms ${ours <= TARGET_MS ? 'MEETS' : 'MISSES'}`,
    );
  }
} finally {
  await rig.close();
  await fake.close();
}
