/**
 * `npm start [-- FOLDER] [--no-sandbox]`: the Electron app wherever an Electron binary can
 * start; where none can (never downloaded, no display, or it fails as it starts) one line
 * says why and the same app is served to the browser by the web host. FOLDER opens a
 * session on that folder either way, and the window shows its tab with the composer focused.
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { agentModelEndpointFromEnv } from '../electron/core/agents/agent-model-endpoint.js';
import { refuseWorkspace } from '../electron/core/paths/workspace-refusal.js';
import { serveUntilSignal } from '../electron/web/start-web-host.js';
import { dataDir } from './data-dir.js';
import { startElectron } from './electron-start.js';
import { openBrowser } from './open-browser.js';
import { ensureRendererBuilt } from './renderer-build.js';
import { parseStartArgs } from './start-args.js';

try {
  const args = parseStartArgs(process.argv.slice(2), process.env.INIT_CWD ?? process.cwd());
  const env = args.dataDir ? { ...process.env, GATEHOUSE_HOME: args.dataDir } : process.env;
  // A refused folder (`npm start -- ~`) is said in one line before anything starts; the core
  // refuses it again at its door, with Electron's own data folder where that differs.
  // The desktop app reads it too (app-main.ts): a bad value stops either before anything starts.
  const agentModelEndpoint = agentModelEndpointFromEnv(env);
  if (args.folder) await refuseWorkspace(args.folder, { home: os.homedir(), dataDir: dataDir(args.dataDir, env) });
  const electron = await startElectron(args.folder ? [args.folder] : [], env, { noSandbox: args.noSandbox });
  if (electron.ran) process.exit(electron.code);
  console.log(electron.reason);
  await ensureRendererBuilt(['missing', 'stale']);
  // The browser's command line is readable by every local user (`ps`): it gets the path of
  // a page only this user can read, never the token nor a code that leads to it.
  await serveUntilSignal(
    {
      dataDir: dataDir(args.dataDir, process.env),
      openFolder: args.folder,
      ...(agentModelEndpoint ? { agentModelEndpoint } : {}),
    },
    (host) =>
      void host.launchPage().then(
        (page) => openBrowser(pathToFileURL(page).href),
        (err: Error) =>
          console.log(`Could not write the page that opens the browser (${err.message}): open the URL above.`),
      ),
  );
} catch (err) {
  console.error(`gatehouse: ${(err as Error).message}`);
  process.exit(2);
}
