/**
 * The web host as an app: the core on a data folder (no OS cipher: keys come from the
 * environment), the server in front of it, and optionally a session opened on a folder.
 * `npm run serve` runs it until a signal; `npm start` falls back to it where Electron
 * cannot run.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionSummary } from '../../shared/contract.js';
import { agentModelOf } from '../core/agents/agent-model-endpoint.js';
import { createCore, type Core } from '../core/core.js';
import { lockDataDir } from './data-dir-lock.js';
import { LaunchPages } from './launch-page.js';
import { forgetStoredToken, newToken } from './token.js';
import { startWebServer, type WebServer } from './server.js';

export const RENDERER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../out/renderer');

/** The usual port, so an open page finds a restarted host again; any free one when it is taken. */
export const DEFAULT_PORT = 7310;

/** A shutdown that takes longer than this (a command that will not die) ends the process anyway. */
const SHUTDOWN_LIMIT_MS = 15_000;

export interface WebHostOptions {
  dataDir: string;
  /** Unset: DEFAULT_PORT, or any free port when that is taken. 0: any free port. */
  port?: number;
  /** The address to listen on; a non-loopback one only when `hostNamedExplicitly`. */
  bindHost?: string;
  hostNamedExplicitly?: boolean;
  /** A folder to open a session on at start. */
  openFolder?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  staticDir?: string;
  /** A model server on this machine's loopback for external agents (`--agent-model-endpoint`). */
  agentModelEndpoint?: { port: number };
}

export interface RunningWebHost {
  /** The URL to print: the token in its fragment, and the session `--open` made, if any. */
  readonly url: string;
  /**
   * The path of a launch page to open the browser on (launch-page.ts): readable by the user
   * only, it sends the browser on with a code good once, for 60 s, and goes once spent. The
   * path grants nothing, so it may go on a command line; the token and the code never do.
   */
  launchPage(): Promise<string>;
  /** The session opened on `openFolder`, which the page shows first. */
  readonly startSession: string | null;
  readonly server: WebServer;
  readonly core: Core;
  /** Lines worth printing at start: a network warning, unreadable sessions, the opened session. */
  readonly notes: string[];
  /** Closes the server and its sockets, then the core (cancels live runs, flushes the logs). */
  close(): Promise<void>;
}

export async function startWebHost(options: WebHostOptions): Promise<RunningWebHost> {
  const env = options.env ?? process.env;
  const lock = await lockDataDir(options.dataDir);
  const core = await createCore({
    dataDir: options.dataDir,
    env,
    home: options.home ?? env.HOME ?? os.homedir(),
    cipher: null,
    ...(options.agentModelEndpoint ? { agentModel: agentModelOf(options.agentModelEndpoint) } : {}),
    onUnexpected: (err) => console.error('gatehouse: unexpected error:', err),
  }).catch(async (err: unknown) => {
    await lock.release();
    throw err;
  });
  const notes: string[] = [];
  let server: WebServer;
  let startSession: string | null = null;
  const pages = new LaunchPages(options.dataDir);
  try {
    // A fresh token every start, never written down: a page from an earlier run asks for the new URL.
    await forgetStoredToken(options.dataDir);
    await pages.clear();
    const serverOptions = {
      host: core.host,
      token: newToken(),
      staticDir: options.staticDir ?? RENDERER_DIR,
      port: options.port ?? DEFAULT_PORT,
      bindHost: options.bindHost,
      hostNamedExplicitly: options.hostNamedExplicitly,
    };
    server = await startWebServer(serverOptions).catch((err: NodeJS.ErrnoException) => {
      if (options.port !== undefined || err.code !== 'EADDRINUSE') throw err;
      return startWebServer({ ...serverOptions, port: 0 });
    });
    if (options.openFolder) {
      const opened = await openFolder(core, options.openFolder);
      startSession = opened.id;
      notes.push(`opened a session on ${opened.workspace}`);
    }
  } catch (err) {
    await core.dispose();
    await lock.release();
    throw err;
  }
  if (server.warning) notes.unshift(server.warning);
  for (const bad of core.unreadable) notes.push(`could not read session ${bad.name}: ${bad.error}`);
  let closing: Promise<void> | null = null;
  return {
    url: server.tokenUrl(startSession),
    launchPage: () => pages.write((spent) => server.oneTimeUrl(startSession, spent)),
    startSession,
    server,
    core,
    notes,
    close: () =>
      (closing ??= (async () => {
        await server.close();
        pages.close();
        await core.dispose();
        await lock.release();
      })()),
  };
}

async function openFolder(core: Core, folder: string): Promise<SessionSummary> {
  const reply = await core.host.call('sessions.open', { workspace: path.resolve(folder) });
  if (!reply.ok) throw new Error(`--open ${folder}: ${reply.error}`);
  return reply.data as SessionSummary;
}

/**
 * Runs the web host until SIGINT or SIGTERM, then shuts down cleanly and exits 0. Prints
 * the URL (the token in its fragment) as the one line a user needs: the terminal is the
 * user's own, unlike a command line, which every local user can read in `ps`.
 */
export async function serveUntilSignal(
  options: WebHostOptions,
  onStarted?: (host: RunningWebHost) => void,
): Promise<void> {
  // Listening before anything starts: a signal that arrives while the core recovers its
  // sessions, or the instant the URL is printed, still shuts down cleanly.
  let host: RunningWebHost | null = null;
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // Ctrl-C reaches npm and this process both, and npm forwards it: one shutdown serves all.
    if (stopping) return;
    stopping = true;
    console.log(`gatehouse: ${signal}, shutting down`);
    if (host) shutDown(host);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    host = await startWebHost(options);
  } catch (err) {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    throw err;
  }
  if (stopping) return shutDown(host);
  for (const note of host.notes) console.log(note);
  console.log(`Gatehouse is running at ${host.url}`);
  onStarted?.(host);
}

function shutDown(host: RunningWebHost): void {
  const stuck = setTimeout(() => {
    console.error(`gatehouse: shutdown took over ${SHUTDOWN_LIMIT_MS / 1000} s; exiting anyway`);
    process.exit(1);
  }, SHUTDOWN_LIMIT_MS);
  host.close().then(
    () => {
      clearTimeout(stuck);
      process.exit(0);
    },
    (err: unknown) => {
      console.error('gatehouse: shutdown failed:', err);
      process.exit(1);
    },
  );
}
