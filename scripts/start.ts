/**
 * `npm start` for this milestone: checks the installation and prints, read-only, what the
 * core would serve — the data folder, the sessions on disk with their state, and whether a
 * model is configured. The Electron window and the web host arrive with the next milestone.
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { rgPath } from '@vscode/ripgrep';
import { foldEvents } from '../shared/reducer.js';
import { parseEventLines } from '../electron/core/log/event-lines.js';
import { sessionPaths } from '../electron/core/log/session-paths.js';
import { SessionStore } from '../electron/core/log/session-store.js';
import { AppSettings } from '../electron/core/settings/app-settings.js';

function dataDir(argv: string[], env: NodeJS.ProcessEnv): string {
  const flag = argv.indexOf('--data-dir');
  if (flag >= 0 && argv[flag + 1]) return path.resolve(argv[flag + 1]!);
  if (env.GATEHOUSE_HOME) return path.resolve(env.GATEHOUSE_HOME);
  // Where Electron's userData lives on Linux for an app named Gatehouse.
  return path.join(env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'Gatehouse');
}

const dir = dataDir(process.argv.slice(2), process.env);
const rg = execFileSync(rgPath, ['--version'], { encoding: 'utf8' }).split('\n')[0];
console.log(`Gatehouse core (Node ${process.version}, ${rg})`);
console.log(`data folder: ${dir}`);

const settings = await new AppSettings(dir).read();
const model = settings.model ? `${settings.model.provider} ${settings.model.modelId}` : 'none';
console.log(`model: ${model}${settings.problem ? ` (${settings.problem})` : ''}`);

// Listing reads meta.json only; the logs are parsed here rather than opened through
// SessionLog, which would repair a torn tail — a status command must change nothing.
const { sessions, unreadable } = await new SessionStore({ dataDir: dir }).list();
console.log(`sessions: ${sessions.length}`);
for (const meta of sessions) {
  const file = sessionPaths(dir, meta.id).events;
  let status: string;
  try {
    status = foldEvents(parseEventLines(await readFile(file), file).events).status;
  } catch (err) {
    status = `unreadable (${(err as Error).message})`;
  }
  console.log(`  ${meta.id}  ${status.padEnd(7)}  ${meta.workspace}  "${meta.title}"`);
}
for (const bad of unreadable) console.log(`  unreadable: ${bad.name}: ${bad.error}`);

console.log('\nThe window (Electron) and the browser UI (npm run serve) are the next milestone.');
console.log('Everything underneath them is here and tested: run `npm test`.');
