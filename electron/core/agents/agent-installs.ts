/**
 * Installs, updates and removes external agents (SPEC §14) with the person's own npm, into
 * the agent's folder (agent-folder.ts), never into Gatehouse's own node_modules. npm runs
 * through the process room with the app's environment minus every secret; install scripts
 * are off (`--ignore-scripts`): the pinned agents need none, as their native parts come as
 * prebuilt optional packages per platform. One install at a time per agent; an update is
 * an install of the new pin; the previous install stays until the new one is checked.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { AgentId, AgentProgress } from '../../../shared/agents.js';
import type { ErrorKind } from '../error-kind.js';
import { makePrivateDir } from '../files/private-files.js';
import { runToEnd } from '../process/command-run.js';
import { findOnPath } from '../sandbox/program-path.js';
import {
  agentFolders,
  besidePrefix,
  installedAt,
  recover,
  removePrefix,
  swapIn,
  type InstalledAgent,
} from './agent-folder.js';
import type { AgentSpec } from './agent-spec.js';
import { LineSplitter, npmProblem, readNpmLine, tarballsToFetch, thisPlatform, type NpmLine } from './npm-progress.js';

/** An install, update or removal that cannot be done, in words for the person. */
export class AgentInstallError extends Error {
  readonly errorKind: ErrorKind = 'refused';
  override readonly name = 'AgentInstallError';
}

export interface AgentInstallsOptions {
  /** `<dataDir>/agents`, or the CI cache: each agent in `<root>/<id>/{pkg,home}`. */
  root: string;
  /** The environment npm runs with: the app's without secrets (commandEnv); its PATH finds node and npm. */
  env: () => NodeJS.ProcessEnv;
  /** Longest one npm step may take; Claude Code's CLI alone is about 340 MB. */
  timeoutMs?: number;
  /**
   * Asked of a new install before it replaces anything: whether it speaks ACP (acp-check.ts).
   * Throws in words when it does not; the install then fails and the previous one stays.
   */
  checkAcp?: (made: {
    spec: AgentSpec;
    prefix: string;
    version: string;
    node: string;
    signal: AbortSignal;
  }) => Promise<void>;
}

/** Where node and npm are, or the one line saying which is missing. */
export type NpmTools = { node: string; npm: string } | { missing: string };

export type OnProgress = (progress: AgentProgress) => void;

const DEFAULT_TIMEOUT_MS = 20 * 60_000;

/** Flags of both npm steps: nothing sent to npm's audit or funding endpoints, no scripts, a line per request. */
const NPM_FLAGS = ['--no-audit', '--no-fund', '--ignore-scripts', '--no-update-notifier', '--loglevel', 'http'];

export class AgentInstalls {
  private readonly running = new Map<AgentId, { controller: AbortController; done: Promise<unknown> }>();

  constructor(private readonly options: AgentInstallsOptions) {}

  /** node and npm on the environment's PATH (absolute entries only). */
  async tools(): Promise<NpmTools> {
    const pathVar = this.options.env().PATH;
    const [node, npm] = await Promise.all([findOnPath('node', pathVar), findOnPath('npm', pathVar)]);
    if (!node) return { missing: 'node is not on the PATH: install Node.js 22 or later to install agents' };
    if (!npm) return { missing: 'npm is not on the PATH: install npm (it comes with Node.js) to install agents' };
    return { node, npm };
  }

  /** What is installed for `spec` now (whatever its version), or null. Reads only. */
  installed(spec: AgentSpec): Promise<InstalledAgent | null> {
    return installedAt(agentFolders(this.options.root, spec.id).prefix, spec);
  }

  busy(id: AgentId): boolean {
    return this.running.has(id);
  }

  /** Puts back what a crash left half-swapped (agent-folder.ts), unless this agent's install is running. */
  async recover(id: AgentId): Promise<void> {
    if (!this.busy(id)) await recover(agentFolders(this.options.root, id));
  }

  /**
   * Installs `spec`'s pinned packages (an update when another version is there), telling
   * `onProgress` as it goes; resolves once the checked install is in place. A second
   * install of the same agent while one runs is refused; a failure says why and leaves
   * the previous install untouched.
   */
  install(spec: AgentSpec, onProgress: OnProgress): Promise<InstalledAgent> {
    // Checked and claimed before anything awaits, so two calls in the same tick cannot both start.
    if (this.running.has(spec.id)) {
      return Promise.reject(new AgentInstallError(`${spec.label} is already being installed: wait for it to finish`));
    }
    const bad = specProblem(spec);
    if (bad) return Promise.reject(new AgentInstallError(`${spec.label} cannot be installed: ${bad}`));
    const controller = new AbortController();
    // Released before the caller hears the outcome, so an install right after this one is not refused.
    const job = this.installNow(spec, onProgress, controller.signal).finally(() => this.running.delete(spec.id));
    this.running.set(spec.id, { controller, done: job.catch(() => {}) });
    return job;
  }

  /** Removes the install; with `home`, the agent's HOME (its login) too. Refused while it installs. */
  async remove(id: AgentId, opts: { home?: boolean } = {}): Promise<void> {
    if (this.running.has(id))
      throw new AgentInstallError(`${id} is being installed: wait for it to finish, then remove it`);
    const folders = agentFolders(this.options.root, id);
    await recover(folders);
    await removePrefix(folders);
    if (opts.home) await fs.rm(folders.home, { recursive: true, force: true });
  }

  /** Stops every install under way (the app is quitting) and waits for their folders to be tidied. */
  async stopAll(): Promise<void> {
    const jobs = [...this.running.values()];
    for (const job of jobs) job.controller.abort();
    await Promise.all(jobs.map((job) => job.done));
  }

  private async installNow(spec: AgentSpec, onProgress: OnProgress, signal: AbortSignal): Promise<InstalledAgent> {
    const say = (p: Omit<AgentProgress, 'id'>) => onProgress({ id: spec.id, ...p });
    const folders = agentFolders(this.options.root, spec.id);
    const had = await this.installed(spec);
    try {
      const tools = await this.tools();
      if ('missing' in tools) throw new AgentInstallError(tools.missing);
      await makePrivateDir(folders.dir);
      await recover(folders);
      const made = besidePrefix(folders, 'new');
      try {
        await fs.mkdir(made);
        await this.fetchInto(made, spec, tools.npm, signal, say);
        say({ phase: 'checking', fraction: 1, line: `Checking ${spec.label} ${spec.version}` });
        await checkMade(made, spec);
        if (this.options.checkAcp) {
          say({ phase: 'checking', fraction: 1, line: `Checking that ${spec.label} ${spec.version} speaks ACP` });
          await this.options.checkAcp({ spec, prefix: made, version: spec.version, node: tools.node, signal });
        }
        await swapIn(folders, made);
      } finally {
        await fs.rm(made, { recursive: true, force: true });
      }
      const installed = (await this.installed(spec)) as InstalledAgent;
      say({ phase: 'done', fraction: 1, line: `${spec.label} ${installed.version} is installed` });
      return installed;
    } catch (err) {
      const why = err instanceof AgentInstallError ? err.message : (err as Error).message;
      const kept = had ? `${spec.label} ${had.version} is still installed, untouched` : 'nothing was changed';
      const line = `${spec.label} ${spec.version} was not installed: ${why}; ${kept}`;
      say({ phase: 'failed', line });
      throw new AgentInstallError(line);
    }
  }

  /**
   * Resolves the tree into a lockfile, then fetches what it locks (`npm install` driven by the
   * lockfile), saying how far it got. Not `npm ci`: it refuses a lockfile that lacks an
   * optional package the registry does not have (opencode names a package per platform, and
   * a registry may hold only some of them), where `npm install` skips it.
   */
  private async fetchInto(
    made: string,
    spec: AgentSpec,
    npm: string,
    signal: AbortSignal,
    say: (p: Omit<AgentProgress, 'id'>) => void,
  ): Promise<void> {
    say({ phase: 'resolving', line: `Resolving ${spec.label} ${spec.version}` });
    const resolveArgs = ['install', '--package-lock-only', '--save-exact', '--prefix', made, ...NPM_FLAGS];
    await this.npm(npm, [...resolveArgs, ...spec.packages], made, signal, (line) => {
      if (line.kind === 'metadata') say({ phase: 'resolving', line: `Resolving ${line.name}` });
    });
    const total = tarballsToFetch(await fs.readFile(path.join(made, 'package-lock.json'), 'utf8'), thisPlatform());
    const seen = new Set<string>();
    const counted = () => (total > 0 ? { fraction: Math.min(1, seen.size / total) } : {});
    say({ phase: 'downloading', ...counted(), line: `Downloading ${spec.label} (${total} packages)` });
    await this.npm(npm, ['install', '--no-save', '--prefix', made, ...NPM_FLAGS], made, signal, (line) => {
      if (line.kind !== 'tarball' || seen.has(line.url)) return;
      seen.add(line.url);
      const all = total > 0 && seen.size >= total;
      say({
        phase: all ? 'installing' : 'downloading',
        ...counted(),
        line: all ? `Unpacking ${spec.label}` : `Downloading ${spec.label}: ${seen.size} of ${total} packages`,
      });
    });
  }

  /** Runs npm to its end; a failure, a timeout or a cancel is an AgentInstallError with npm's own words. */
  private async npm(
    npm: string,
    args: string[],
    cwd: string,
    signal: AbortSignal,
    onLine: (line: NpmLine) => void,
  ): Promise<void> {
    const problems: string[] = [];
    const take = (text: string) => {
      const line = readNpmLine(text);
      if (line.kind === 'problem') problems.push(line.text);
      onLine(line);
    };
    const split = { stdout: new LineSplitter(take), stderr: new LineSplitter(take) };
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const outcome = await runToEnd({
      argv: [npm, ...args],
      cwd,
      env: this.options.env(),
      timeoutMs,
      signal,
      onOutput: (stream, chunk) => split[stream].push(chunk),
    }).catch((err: unknown) => {
      throw new AgentInstallError(`npm could not start: ${(err as Error).message}`);
    });
    split.stdout.end();
    split.stderr.end();
    if (outcome.cancelled) throw new AgentInstallError('the install was cancelled');
    if (outcome.timedOut) throw new AgentInstallError(`npm took longer than ${Math.round(timeoutMs / 60_000)} minutes`);
    if (outcome.exitCode !== 0) {
      const words = npmProblem(problems) || outcome.stderr.text.trim().split('\n').slice(-3).join(' ');
      const how = outcome.exitCode === null ? `was stopped by ${outcome.signal}` : `failed (exit ${outcome.exitCode})`;
      throw new AgentInstallError(`npm ${args[0]} ${how}${words ? `: ${words}` : ''}`);
    }
  }
}

/** The check before a new install replaces anything: its entry is there and its version is the pin. */
async function checkMade(made: string, spec: AgentSpec): Promise<void> {
  const got = await installedAt(made, spec);
  if (!got) throw new AgentInstallError(`npm finished but ${spec.entry} is not there`);
  if (got.version !== spec.version) {
    throw new AgentInstallError(`npm installed version ${got.version}, not the pinned ${spec.version}`);
  }
}

/** What makes a spec unsafe to hand to npm or to join to a folder, or null. */
function specProblem(spec: AgentSpec): string | null {
  if (spec.packages.length === 0) return 'no packages are named';
  // npm takes argv: a package that starts with "-" would be read as a flag.
  if (spec.packages.some((p) => p.trim() === '' || p.startsWith('-')))
    return 'a package name is empty or starts with "-"';
  const entry = path.posix.normalize(spec.entry);
  if (path.posix.isAbsolute(entry) || entry.startsWith('..') || !entry.startsWith('node_modules/')) {
    return `its entry ${spec.entry} is not a path inside node_modules/`;
  }
  return null;
}
