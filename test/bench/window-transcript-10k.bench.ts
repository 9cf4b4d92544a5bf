/**
 * A 10,000-event transcript in Chromium through the real web host: time from the click on
 * the session in the sidebar to its transcript's first rows painted, and the page's JS heap
 * (after a full GC) with it open. The session is written into the data folder before the
 * host starts. References, same page, same run: the heap before the session is opened, and
 * a naive render (parse the same 10,000 JSON lines, one plain-text row each, no virtualizing).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { startFakeModel } from '../fake-model/server.js';
import { fakeModelConfig } from '../e2e/harness/temp-folders.js';
import { visible } from '../e2e/harness/gatehouse-page.js';
import { waitUntil } from '../e2e/harness/wait-until.js';
import { firstTextProbe, naiveRender } from './window/first-text-probe.js';
import { FIRST_MARKER, LAST_MARKER, writeLongSession } from './window/long-session-log.js';
import { heapAfterGc, startWindowRig } from './window/window-rig.js';

const EVENTS = 10_000;
const TITLE = 'ten thousand events';
const MiB = 1024 * 1024;

const fake = await startFakeModel({ keepBodies: false });
const model = fakeModelConfig(fake.openaiBaseURL);
let eventsFile = '';
const rig = await startWindowRig({
  model,
  initScripts: [firstTextProbe([FIRST_MARKER, LAST_MARKER])],
  prepare: async (folders) => {
    const ws = await folders.workspace('long-ws');
    const id = await writeLongSession(folders.dataDir, ws, TITLE, model, EVENTS);
    eventsFile = path.join(folders.dataDir, 'sessions', id, 'events.jsonl');
  },
});
try {
  const baseline = await heapAfterGc(rig.cdp);
  const entry = await visible(rig.ui.sidebar().getByText(TITLE), `the session "${TITLE}" in the sidebar`);
  // Stamp and click in one task in the page, so the time is the page's own.
  await entry.evaluate((el) => {
    (globalThis as unknown as { __gatehouseBench: { startAt: number } }).__gatehouseBench.startAt = performance.now();
    (el as unknown as { click(): void }).click();
  });
  const bench = await waitUntil(
    () => rig.ui.page.evaluate('window.__gatehouseBench') as Promise<{ startAt: number; textPainted?: number }>,
    (b) => b.textPainted !== undefined,
    'the transcript painted',
    120_000,
  );
  const openMs = bench.textPainted! - bench.startAt;
  const withSession = await heapAfterGc(rig.cdp);

  const jsonl = await fs.readFile(eventsFile, 'utf8');
  const naive = (await rig.ui.page.evaluate(naiveRender(jsonl))) as number;

  console.log(
    `${EVENTS}-event transcript (${(jsonl.length / MiB).toFixed(1)} MiB of events.jsonl): click -> first rows painted ${openMs.toFixed(0)} ms; ` +
      `reference, naive render of the same lines ${naive.toFixed(0)} ms, ratio ${(openMs / naive).toFixed(2)}x`,
  );
  console.log(
    `page JS heap after GC: ${(withSession / MiB).toFixed(1)} MiB with the session open, ${(baseline / MiB).toFixed(1)} MiB before; ` +
      `the session costs ${((withSession - baseline) / MiB).toFixed(1)} MiB (${(withSession / baseline).toFixed(2)}x the empty window)`,
  );
} finally {
  await rig.close();
  await fake.close();
}
