/**
 * `npm start` for this milestone: checks the installation and prints, read-only, what the
 * core would serve — the data folder, the sessions on disk with their state, and whether a
 * model is configured. The Electron window and the web host arrive with the next milestone.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { rgPath } from '@vscode/ripgrep';
import { foldEvents } from '../shared/reducer.js';
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

const store = new SessionStore({ dataDir: dir });
const { sessions, unreadable } = await store.list();
console.log(`sessions: ${sessions.length}`);
for (const meta of sessions) {
  const record = await store.open(meta.id);
  const state = foldEvents(await record.log.readEvents());
  console.log(`  ${meta.id}  ${state.status.padEnd(7)}  ${meta.workspace}  "${meta.title}"`);
}
for (const bad of unreadable) console.log(`  unreadable: ${bad.name}: ${bad.error}`);
await store.closeAll();

console.log('\nThe window (Electron) and the browser UI (npm run serve) are the next milestone.');
console.log('Everything underneath them is here and tested: run `npm run check`.');
