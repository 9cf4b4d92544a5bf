/**
 * The child of the kill -9 test: a core over the test's data folder that reviews a session's
 * place and applies it as files, slowly (each file waits a little after it is written), so
 * the parent can stop it with SIGKILL in the middle. argv: dataDir home sessionId.
 */
import { createCore } from '../../../../../electron/core/core.js';
import { NoSandbox } from '../../../../../electron/core/sandbox/no-sandbox.js';

const [dataDir, home, id] = process.argv.slice(2) as [string, string, string];
const pause = new Int32Array(new SharedArrayBuffer(4));
const core = await createCore({
  dataDir,
  home,
  env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
  cipher: null,
  agents: null,
  sandbox: new NoSandbox('not needed by this test'),
  // Slow enough that the parent sees some files written and stops it before the last.
  onPlaceApplyFile: () => void Atomics.wait(pause, 0, 0, 25),
});
const review = await core.host.call('session.review', { id });
if (!review.ok) throw new Error(review.error);
const reply = await core.host.call('session.apply', {
  id,
  reviewId: (review.data as { reviewId: string }).reviewId,
  as: 'files',
});
console.log(JSON.stringify(reply));
