import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseEventLines } from '../../../../../electron/core/log/event-lines.js';
import { readMeta } from '../../../../../electron/core/log/session-meta.js';
import { SessionStore } from '../../../../../electron/core/log/session-store.js';
import { useTempDir } from './temp-dir.js';

const tmp = useTempDir();
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../../..');
const writerScript = path.join(here, 'fixtures', 'crash-writer.ts');

const RUNS = 50;
/** Kills land uniformly within this long after the child says it is ready. */
const KILL_WINDOW_MS = 150;

interface Acks {
  lastSeq: number | null;
  lastMeta: number | null;
  lastFile: number | null;
}

/**
 * Starts the writer, SIGKILLs it at a random moment after it says `ready` on stdout, and
 * returns what it acknowledged in its ack file (a file, since writes to a slow pipe fail).
 */
async function runAndKill(args: string[], ackFile: string): Promise<Acks> {
  await rm(ackFile, { force: true });
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; err: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', writerScript, ...args, ackFile], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      let killed = false;
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (!killed && out.startsWith('ready\n')) {
          killed = true;
          setTimeout(() => child.kill('SIGKILL'), Math.random() * KILL_WINDOW_MS);
        }
      });
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, err }));
    },
  );
  if (exit.signal !== 'SIGKILL' && exit.code !== 0) throw new Error(`writer failed (${exit.code}): ${exit.err}`);
  const out = await readFile(ackFile, 'utf8').catch(() => '');
  const last = (kind: string): number | null => {
    const hits = out.split('\n').filter((l) => l.startsWith(`${kind} `));
    return hits.length ? Number(hits.at(-1)?.split(' ')[1]) : null;
  };
  return { lastSeq: last('event'), lastMeta: last('meta'), lastFile: last('file') };
}

/** What a lane has seen survive so far. */
interface Survived {
  events: number;
  title: string;
  fileContent: string | null;
  tornTails: number;
}

/**
 * Kills a writer `runs` times on one session and checks after each kill that the log,
 * meta.json and the workspace file hold everything acknowledged, and nothing half-written.
 */
async function lane(dataDir: string, name: string, runs: number): Promise<Survived> {
  const workspaceFile = path.join(dataDir, `workspace-${name}`, 'file.txt');
  const store = new SessionStore({ dataDir });
  const session = await store.create({ workspace: path.dirname(workspaceFile), title: 'start', model: null });
  await session.close();
  const eventsFile = path.join(session.dir, 'events.jsonl');
  const seen: Survived = { events: 0, title: 'start', fileContent: null, tornTails: 0 };

  for (let run = 0; run < runs; run++) {
    const acks = await runAndKill(
      [dataDir, session.id, workspaceFile, String(run)],
      path.join(dataDir, `acks-${name}`),
    );

    // Log: every complete line parses, seqs run 1..n, and nothing acknowledged is missing.
    // Odd runs reopen through the store (which repairs the tail); even runs only parse,
    // leaving any torn tail for the next child to repair.
    let seqs: number[];
    if (run % 2 === 1 || run === runs - 1) {
      const reopened = await new SessionStore({ dataDir }).open(session.id);
      seqs = (await reopened.log.readEvents()).map((e) => e.seq);
      seen.tornTails += reopened.log.tornTails().length;
      expect((await reopened.state()).lastSeq).toBe(seqs.length);
      await reopened.close();
    } else {
      const parsed = parseEventLines(await readFile(eventsFile), eventsFile);
      seqs = parsed.events.map((e) => e.seq);
      if (parsed.torn) seen.tornTails++;
    }
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    const acked = acks.lastSeq ?? seen.events;
    // One append is in flight at a time: it may have landed without being acknowledged.
    expect([acked, acked + 1]).toContain(seqs.length);
    seen.events = seqs.length;

    // meta.json: always valid, and either the last acknowledged version or the one after it.
    const meta = await readMeta(session.dir);
    const metaOptions =
      acks.lastMeta === null
        ? [seen.title, `run ${run} meta 0`]
        : [`run ${run} meta ${acks.lastMeta}`, `run ${run} meta ${acks.lastMeta + 1}`];
    expect(metaOptions).toContain(meta.title);
    seen.title = meta.title;

    // The workspace file: old content or new, whole.
    const content = await readFile(workspaceFile, 'utf8').catch(() => null);
    const version = (i: number) => `run ${run} file ${i}\n`.repeat(2000);
    const fileOptions =
      acks.lastFile === null ? [seen.fileContent, version(0)] : [version(acks.lastFile), version(acks.lastFile + 1)];
    expect(fileOptions).toContain(content);
    seen.fileContent = content;
  }
  return seen;
}

describe('crash safety', () => {
  it(`loses no acknowledged event, meta write or file write across ${RUNS} kill -9s`, async () => {
    // Two sessions killed side by side: the same number of kills in about half the time.
    const lanes = await Promise.all([lane(tmp.path, 'a', RUNS / 2), lane(tmp.path, 'b', RUNS / 2)]);
    const events = lanes.reduce((n, l) => n + l.events, 0);
    const torn = lanes.reduce((n, l) => n + l.tornTails, 0);
    expect(events).toBeGreaterThan(RUNS);
    console.info(`crash safety: ${RUNS} kills, ${events} events survived, ${torn} torn tails set aside`);
  }, 240_000);
});
