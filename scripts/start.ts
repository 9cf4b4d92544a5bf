/**
 * `npm start [-- FOLDER]`: the Electron app wherever an Electron binary can start; where
 * none can (never downloaded, or no display) one line says why and the same app is served
 * to the browser by the web host. FOLDER opens a session on that folder either way, and
 * the window shows its tab with the composer focused.
 */
import { serveUntilSignal } from '../electron/web/start-web-host.js';
import { dataDir } from './data-dir.js';
import { startElectron } from './electron-start.js';
import { openBrowser } from './open-browser.js';
import { ensureRendererBuilt } from './renderer-build.js';
import { parseStartArgs } from './start-args.js';

try {
  const args = parseStartArgs(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd());
  const env = args.dataDir ? { ...process.env, GATEHOUSE_HOME: args.dataDir } : process.env;
  const exitCode = await startElectron(args.folder ? [args.folder] : [], env);
  if (exitCode !== null) process.exit(exitCode);
  await ensureRendererBuilt(['missing', 'stale']);
  // The browser's command line is readable by every local user (`ps`): it gets a code good
  // for one visit within 60 s, never the token itself.
  await serveUntilSignal({ dataDir: dataDir(args.dataDir, process.env), openFolder: args.folder }, (host) =>
    openBrowser(host.oneTimeUrl()),
  );
} catch (err) {
  console.error(`gatehouse: ${(err as Error).message}`);
  process.exit(2);
}
