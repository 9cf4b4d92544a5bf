/**
 * Frame rate of the active tab while 10 sessions stream text at once (target >= 50 fps), in
 * Chromium through the real web host. A slow model streams a long reply to every session,
 * one word per 15 ms each (about 670 deltas a second in all); the page counts its animation
 * frames over 5 s, once early and once the active message has grown past 2,500 words.
 * Reference: the same page, same sessions open, with nothing streaming.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { fakeModelConfig } from '../e2e/harness/temp-folders.js';
import { visible } from '../e2e/harness/gatehouse-page.js';
import { waitUntil } from '../e2e/harness/wait-until.js';
import { countFrames, type FrameCount } from './window/frame-rate-probe.js';
import { startSlowStreamModel } from './window/slow-stream-model.js';
import { startWindowRig } from './window/window-rig.js';

const SESSIONS = 10;
const WORDS = 12_000;
const INTERVAL_MS = 15;
const MEASURE_MS = 5_000;
const TARGET_FPS = 50;
const LONG_WORDS = 2500;

const model = await startSlowStreamModel(WORDS, INTERVAL_MS);
const rig = await startWindowRig({ model: fakeModelConfig(model.openaiBaseURL) });
try {
  const workspaces = [];
  for (let i = 0; i < SESSIONS; i++) workspaces.push(await rig.folders.workspace(`stream-${i}`));
  for (const ws of workspaces) await rig.ui.openWorkspace(ws);

  const idle = (await rig.ui.page.evaluate(countFrames(MEASURE_MS))) as FrameCount;

  for (const [i, ws] of workspaces.entries()) {
    await rig.ui.selectTab(`stream-${i}`);
    await rig.ui.send(`Stream a long story, please (${ws})`);
  }
  await waitUntil(
    () => model.requests(),
    (n) => n >= SESSIONS,
    'every session streaming',
    60_000,
  );
  // The active (last) tab shows its stream; give it a moment of real streaming first.
  await visible(rig.ui.page.getByText(/word20\b/), 'streamed words in the active tab', 60_000);
  await sleep(1000);
  const wordsOnScreen = () =>
    rig.ui.page.evaluate(`(document.body.textContent.match(/word\\d+/g) || []).length`) as Promise<number>;
  const report = (when: string, busy: FrameCount, words: number) =>
    console.log(
      `frame rate, active tab, ${SESSIONS} sessions streaming, ${when} (${words} words in the active message): ${busy.fps.toFixed(1)} fps ` +
        `(worst frame ${busy.worstFrameMs.toFixed(1)} ms, ${busy.longTasks} long tasks totalling ${busy.longTaskMs.toFixed(0)} ms in ${MEASURE_MS / 1000} s); ` +
        `reference, nothing streaming: ${idle.fps.toFixed(1)} fps (worst ${idle.worstFrameMs.toFixed(1)} ms), ratio ${(busy.fps / idle.fps).toFixed(2)}; ` +
        `target >= ${TARGET_FPS} fps ${busy.fps >= TARGET_FPS ? 'MEETS' : 'MISSES'}`,
    );
  const early = (await rig.ui.page.evaluate(countFrames(MEASURE_MS))) as FrameCount;
  report('early', early, await wordsOnScreen());
  // A long answer: the streamed message keeps growing, and its cost per frame must not.
  await waitUntil(wordsOnScreen, (n) => n >= LONG_WORDS, `${LONG_WORDS} words in the active message`, 180_000);
  const late = (await rig.ui.page.evaluate(countFrames(MEASURE_MS))) as FrameCount;
  report('later', late, await wordsOnScreen());
} finally {
  await rig.close();
  await model.close();
}
