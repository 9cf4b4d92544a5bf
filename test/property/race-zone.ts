/**
 * The racer (issue 31): a long-lived confined process, as a workspace's MCP server is,
 * that keeps exchanging a folder of the workspace with a link to a folder outside it
 * (`renameat2(RENAME_EXCHANGE)`), while the model greps, reads and lists and the person
 * undoes. Whatever the app reads or restores there, it must do in the sandbox's view, where
 * the link leads nowhere: no outside byte reaches the model (invariant 1, read-check.ts)
 * and none is written (invariants 2 and 3, effect-check.ts).
 *
 * The race zone (`<ws>/race`: the folder `d` and the link `dl`, swapped all the time) is
 * the racer's, not the suite's: the watched tree leaves it out, and so do the checkpoints'
 * and restorations' file lists the undo check compares with the tree. The folder outside
 * it leads to (`<out>/deep`) stays watched like all of outside.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { SessionEvent } from '../../shared/events.js';
import { ProcessGroup } from '../../electron/core/process/process-group.js';
import { BwrapSandbox } from '../../electron/core/sandbox/bwrap-sandbox.js';
import type { Layout, Tokens } from './world.js';

/** The zone's folder, relative to the workspace. */
export const RACE_DIR = 'race';
/** What the zone's own file holds: no world token, so none of the suite's traces names it. */
const RACE_CONTENT = 'race inside\n';

/** Names of the files the racer's command changes and adds in the zone. */
const RACE_FILES = Array.from({ length: 20 }, (_, i) => `${i}.txt`);

/**
 * The allowed command of a racer history: it changes 20 files of the zone and adds 20
 * (as it runs, the racer may swap the folder away: then some land in the zone's other name).
 */
export const RACER_COMMAND = [
  'sh',
  '-c',
  `cd ${RACE_DIR}/d && for i in $(seq 0 19); do echo agent >> g$i.txt; echo agent > f$i.txt; done; true`,
];

/** renameat2's number on this machine's architecture; null where the racer cannot run. */
const RENAMEAT2: number | null = process.arch === 'x64' ? 316 : process.arch === 'arm64' ? 276 : null;

export function racerRuns(): boolean {
  return RENAMEAT2 !== null;
}

/** `<ws>/race/d` holding `u.txt` (a name `<out>/deep` holds too), and `<ws>/race/dl` → `<out>/deep`. */
export async function populateRaceZone(layout: Layout, tokens: Tokens): Promise<void> {
  // The racer's sandbox is not the core's: real folders where its placeholders would stand
  // (sandbox/placeholders.ts), so neither removes one the other still holds.
  for (const name of ['.claude', '.gatehouse']) await fs.mkdir(path.join(layout.ws, name), { recursive: true });
  const zone = path.join(layout.ws, RACE_DIR);
  await fs.mkdir(path.join(zone, 'd'), { recursive: true });
  await fs.writeFile(path.join(zone, 'd', 'u.txt'), RACE_CONTENT);
  // Files the racer's command changes (g*) and adds (f*) in the zone, with the same names
  // outside: an undo that wrote or deleted through the link would change these. Many, as an
  // undo's window for the race grows with its files (the review saw 8–25 of 40 land outside).
  for (const name of RACE_FILES) {
    await fs.writeFile(path.join(zone, 'd', `g${name}`), RACE_CONTENT);
    await fs.writeFile(path.join(layout.outside, 'deep', `g${name}`), 'outside g\n');
    await fs.writeFile(path.join(layout.outside, 'deep', `f${name}`), 'outside f\n');
  }
  // A name only the outside folder lists: a list through the link would show it.
  await fs.writeFile(path.join(layout.outside, 'deep', tokens.name()), tokens.content());
  await fs.symlink(path.join(layout.outside, 'deep'), path.join(zone, 'dl'));
}

/**
 * Swaps `d` and `dl` without end, a fraction of a millisecond apart (so the racer does not
 * take a whole core from the app it races), from inside the sandbox a command gets.
 */
export async function startRacer(layout: Layout): Promise<ProcessGroup> {
  // perl's syscall() takes its string arguments as buffers it may write: variables, not literals.
  const loop = `my ($d, $l) = ("${RACE_DIR}/d", "${RACE_DIR}/dl"); while (1) { syscall(${RENAMEAT2}, -100, $d, -100, $l, 2); select(undef, undef, undef, 0.0002) }`;
  const sandbox = new BwrapSandbox({ dataDir: layout.data, home: layout.home, env: process.env });
  const profile = await sandbox.profile(layout.ws, { network: false, git: false });
  return ProcessGroup.start({
    argv: ['perl', '-e', loop],
    cwd: layout.ws,
    env: process.env,
    stdin: 'ignore',
    confine: { sandbox, profile },
  });
}

/** Whether an absolute path lies in a race zone: `…/ws/race` or below it. */
export function inRaceZone(abs: string): boolean {
  const parts = abs.split(path.sep);
  return parts.some((p, i) => p === RACE_DIR && parts[i - 1] === 'ws');
}

function raceRel(rel: string): boolean {
  return rel === RACE_DIR || rel.startsWith(`${RACE_DIR}/`);
}

/**
 * The events as the suite's checks read them: the race zone's files taken out of the lists
 * of checkpoints, undos, redos and rewinds (the racer changes them all the time). The log
 * on disk is compared whole elsewhere (log-check.ts), untouched by this.
 */
export function withoutRaceZone(events: readonly SessionEvent[]): SessionEvent[] {
  return events.map((e) => {
    const keep = <T extends { path: string }>(list: readonly T[]) => list.filter((c) => !raceRel(c.path));
    switch (e.type) {
      case 'checkpoint':
        return { ...e, changed: keep(e.changed) };
      case 'undo':
      case 'redo':
        return { ...e, restored: keep(e.restored), kept: keep(e.kept) };
      case 'rewind':
        return e.code ? { ...e, code: { ...e.code, restored: keep(e.code.restored), kept: keep(e.code.kept) } } : e;
      default:
        return e;
    }
  });
}
