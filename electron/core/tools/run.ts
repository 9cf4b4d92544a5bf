/**
 * The run tool (SPEC §2): an argv run in the workspace with no shell, under a timeout,
 * in a process group of its own. Planning validates the call and resolves the working
 * folder; executing re-resolves it (a link may have moved since the card was shown) and
 * runs the plan. Stop hooks run through `runCommand`, with the same limits.
 */
import { promises as fs } from 'node:fs';
import { z } from 'zod';
import {
  KILL_GRACE_MS,
  RUN_DEFAULT_TIMEOUT_S,
  RUN_MAX_TIMEOUT_S,
  RUN_STREAM_MAX_BYTES,
} from '../../../shared/limits.js';
import type { ResolvedPath } from '../paths/workspace.js';
import { profileOfCard } from '../sandbox/card-profile.js';
import { gitStateOf, takeBackGitGrowth } from '../sandbox/git-growth.js';
import { changedHookInputs, hookInputsLine, hookInputsOf } from '../sandbox/hook-inputs.js';
import { domainListProblem, normalizeDomainList } from '../sandbox/network/domain-policy.js';
import { planConfinement } from '../sandbox/confinement.js';
import type { SandboxProfile } from '../sandbox/sandbox.js';
import { sandboxViolation } from '../sandbox/violation.js';
import { commandPath } from './command-path.js';
import { describeOutcome } from './command-report.js';
import { runToEnd, type ProcessOutcome, type RunOutcome } from '../process/command-run.js';
import type { Confine } from '../process/process-group.js';
import { CommandStartError } from '../process/start-error.js';
import { resolveToolPath } from './tool-path.js';
import {
  StalePlanError,
  ToolError,
  type CommandPlan,
  type ExecContext,
  type Plan,
  type ToolContext,
  type ToolDef,
  type ToolResult,
} from './tool-def.js';

export const runArgsSchema = z.strictObject({
  argv: z
    .array(
      z
        .string({ error: 'each element must be a string' })
        .refine((s) => !s.includes('\0'), 'must not contain a NUL byte'),
      {
        error: 'must be an array of strings, the program first, e.g. ["ls", "-la"]',
      },
    )
    .min(1, 'needs at least one string: the program to run')
    .refine((argv) => (argv[0] ?? '') !== '', { message: 'the program name (argv[0]) must not be empty', path: [0] }),
  timeout_s: z
    .number({ error: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1 second')
    .max(RUN_MAX_TIMEOUT_S, `the maximum is ${RUN_MAX_TIMEOUT_S} seconds; longer timeouts are refused, not shortened`)
    .optional(),
  cwd: z.string({ error: 'must be a folder path, relative to the workspace' }).optional(),
  network: z
    .union([z.boolean(), z.array(z.string({ error: 'each domain must be a string' }))], {
      error: 'must be true (any domain) or a list of domains, e.g. ["registry.npmjs.org"]',
    })
    .superRefine((value, ctx) => {
      const problem = Array.isArray(value) ? domainListProblem(value) : null;
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  unconfined: z.boolean({ error: 'must be true or false' }).optional(),
  git: z.boolean({ error: 'must be true or false' }).optional(),
});

export type RunArgs = z.infer<typeof runArgsSchema>;

const halfStream = RUN_STREAM_MAX_BYTES / 2 / 1024;

const DESCRIPTION = `Run a program in the workspace and get back its exit code, stdout and stderr.
- argv is the program and its arguments as separate strings, e.g. ["npm", "test"] or ["git", "status", "--short"]. There is NO shell: pipes, redirects, &&, globs, $VARS and quotes are passed to the program literally. When you need them, run a shell explicitly: ["sh", "-c", "npm test 2>&1 | tail -n 40"].
- Standard input is empty, so a program that prompts gets end-of-file: pass its non-interactive flags (--yes, --ci, -y).
- cwd: a folder inside the workspace to run in (default: the workspace root).
- timeout_s: 1 to ${RUN_MAX_TIMEOUT_S} seconds (default ${RUN_DEFAULT_TIMEOUT_S}). Above ${RUN_MAX_TIMEOUT_S} the call is refused. On timeout the command and everything it started get SIGTERM, then SIGKILL ${KILL_GRACE_MS / 1000} s later. Background processes it leaves behind are stopped the same way when it exits, so do not start servers or daemons expecting them to keep running.
- Output: up to ${RUN_STREAM_MAX_BYTES / 1024} KiB of each stream. A longer stream comes back as its first and last ${halfStream} KiB with a note of how many bytes were left out, so filter chatty commands (grep, tail, --quiet) to keep what matters.
- A non-zero exit code is reported, not treated as a failure of the tool: read it. The user approves each command before it runs.
- Commands run in a sandbox. A command sees the workspace, the system (/usr, /etc, …) and the user's toolchains and package caches (read-only); not the rest of the home folder: $HOME is a private, empty, writable folder, so dotfiles, credentials and the app's data are not there. It writes only in the workspace, /tmp (private) and that home; .git, .gatehouse and .claude are read-only. It sees only an allow-list of environment variables (PATH, LANG, toolchain variables; never tokens or keys). It has no network, cannot open Unix sockets, and everything it starts stops when it ends. A result that says "blocked by the sandbox" means exactly that, and says what to ask for.
- git: true makes .git writable (its hooks and config stay read-only). Ask for it only for a command that must write git state: git commit, checkout, switch, branch, merge, rebase, stash, fetch, pull. git status, diff and log work without it.
- network gives the command the network, only through the app's proxy: a list of the domains it needs, e.g. ["registry.npmjs.org"] for npm install or ["pypi.org", "files.pythonhosted.org"] for pip, or true for any domain. Prefer a list; a domain not on it is refused with a line that names it. A listed domain is reached by https (port 443) and plain http:// (port 80); for another port write it with the domain, e.g. "git.example.com:8443". Ask for it only when the command needs the network; the user sees the request. The machine's own services (localhost, its own addresses) are never reachable.
- unconfined: true runs the command without the sandbox. Ask for it only after a confined run failed for a reason the sandbox explains ("blocked by the sandbox: ...") and the task cannot be done inside the workspace; say why in your message. Never use it to reach secrets.`;

export const runTool: ToolDef<RunArgs> = {
  name: 'run',
  holds: { commandOutput: true },
  description: DESCRIPTION,
  schema: runArgsSchema,
  plan: planRun,
  execute: executeRun,
};

async function planRun(args: RunArgs, ctx: ToolContext): Promise<CommandPlan> {
  const cwd = await resolveCwd(args.cwd, ctx);
  const timeoutS = args.timeout_s ?? RUN_DEFAULT_TIMEOUT_S;
  const network = networkOf(args.network);
  const unconfined = args.unconfined === true;
  const git = args.git === true;
  const confinement = await planConfinement(ctx.sandbox, ctx.workspace.root, { network, unconfined, git });
  if ('refused' in confinement) throw new ToolError(confinement.refused);
  return {
    kind: 'command',
    tool: 'run',
    argv: args.argv,
    cwd,
    timeoutS,
    customTimeout: args.timeout_s !== undefined && args.timeout_s !== RUN_DEFAULT_TIMEOUT_S,
    network,
    unconfined,
    git,
    sandbox: confinement.sandbox,
    args,
  };
}

async function executeRun(plan: Plan, ctx: ToolContext, exec: ExecContext): Promise<ToolResult> {
  if (plan.kind !== 'command') throw new Error(`run cannot execute a ${plan.tool} plan`);
  await recheckCwd(plan, ctx);
  const { sandbox } = plan;
  let confine: RunCommandOptions['confine'];
  if (sandbox.confined) {
    if (!ctx.sandbox) throw new Error('a confined plan needs the sandbox it was planned with');
    confine = { sandbox: ctx.sandbox.sandbox, profile: profileOf(sandbox) };
  }
  const root = ctx.workspace.root;
  // Here rather than in the sandbox's release: the line is for the model, and only `run` asks for git: true.
  const gitBefore = sandbox.confined && plan.git ? await gitStateOf(root) : null;
  const hooksBefore = sandbox.confined && sandbox.hooks ? await hookInputsOf(root) : null;
  try {
    const outcome = await runCommand(plan.argv, {
      cwd: plan.cwd,
      env: ctx.commandEnv,
      timeoutS: plan.timeoutS,
      exec,
      confine,
    });
    const report = describeOutcome(outcome, plan.timeoutS);
    const failed = outcome.exitCode !== 0 || outcome.signal !== null;
    const blocked =
      confine && failed ? (outcome.networkRefusal ?? sandboxViolation(outcome.stderr.text, confine.profile)) : null;
    const gitRefused = gitBefore ? await takeBackGitGrowth(root, gitBefore) : null;
    const hookInputs = hooksBefore ? await changedHookInputs(root, hooksBefore, await hookInputsOf(root)) : [];
    const lines = [blocked, gitRefused, hookInputsLine(hookInputs)].filter((l): l is string => l !== null);
    return {
      ok: true,
      output: [...lines, report].join('\n'),
      details: {
        ...outcomeDetails(plan, outcome),
        ...(blocked ? { sandboxViolation: blocked } : {}),
        ...(gitRefused ? { gitRefused } : {}),
        ...(hookInputs.length ? { hookInputsChanged: hookInputs } : {}),
      },
    };
  } catch (err) {
    if (!(err instanceof CommandStartError)) throw err;
    return { ok: false, error: err.message, details: { argv: plan.argv, cwd: plan.cwd, code: err.code } };
  }
}

export interface RunCommandOptions {
  /** Real absolute working folder. */
  cwd: string;
  /** Already stripped of secrets (see commandEnv). */
  env: NodeJS.ProcessEnv;
  timeoutS?: number;
  exec?: ExecContext;
  /** process.platform unless a test stands in another. */
  platform?: NodeJS.Platform;
  /** Runs it inside the sandbox, held to the profile (SPEC §9); absent: unconfined. */
  confine?: Confine;
}

/**
 * Runs an argv with the run tool's limits; for callers that have their own gate step,
 * such as the Stop hooks. Throws CommandStartError when the program cannot start.
 */
export async function runCommand(argv: readonly string[], options: RunCommandOptions): Promise<RunOutcome> {
  const [program = '', ...args] = argv;
  const lookup = { platform: options.platform ?? process.platform, env: options.env };
  // On Windows a bare name resolved on PATH, so a same-named file in the workspace never runs.
  const planned = { argv: [await commandPath(program, lookup), ...args], cwd: options.cwd, env: options.env };
  const limits = {
    timeoutMs: (options.timeoutS ?? RUN_DEFAULT_TIMEOUT_S) * 1000,
    signal: options.exec?.signal,
    onOutput: options.exec?.onOutput,
  };
  return runToEnd({ ...planned, ...limits }, options.confine);
}

function profileOf(sandbox: Extract<CommandPlan['sandbox'], { confined: true }>): SandboxProfile {
  const profile = profileOfCard(sandbox);
  if (!profile) throw new StalePlanError('its card is from before the home folder was emptied inside the sandbox');
  return profile;
}

/** A list in one spelling, sorted, so the card, the grant and the proxy agree on it; [] is no network. */
function networkOf(asked: RunArgs['network']): boolean | string[] {
  if (!Array.isArray(asked)) return asked === true;
  const list = normalizeDomainList(asked).sort();
  return list.length > 0 ? list : false;
}

async function resolveCwd(input: string | undefined, ctx: ToolContext): Promise<string> {
  const shown = input ?? '.';
  const resolved = await resolveInside(shown, ctx);
  if (!resolved.inside) {
    throw new ToolError(
      `cwd: "${shown}" is outside the workspace (${resolved.real}); commands run in a folder inside it`,
    );
  }
  if (!resolved.exists) throw new ToolError(`cwd: "${shown}" does not exist`);
  if (!(await isFolder(resolved.real))) throw new ToolError(`cwd: "${shown}" is not a folder`);
  return resolved.real;
}

async function resolveInside(input: string, ctx: ToolContext): Promise<ResolvedPath> {
  try {
    return await resolveToolPath(ctx, input);
  } catch (err) {
    throw err instanceof ToolError ? new ToolError(`cwd: ${err.message}`) : err;
  }
}

/** The same rule as a write's digest: if the folder no longer resolves where the card said, the answer is void. */
async function recheckCwd(plan: CommandPlan, ctx: ToolContext): Promise<void> {
  const input = typeof plan.args.cwd === 'string' ? plan.args.cwd : '.';
  let now: string;
  try {
    now = await resolveCwd(input, ctx);
  } catch (err) {
    throw new StalePlanError(`cwd "${input}" changed since the command was approved: ${(err as Error).message}`);
  }
  if (now !== plan.cwd) {
    throw new StalePlanError(`cwd "${input}" now resolves to ${now}, not ${plan.cwd} as approved`);
  }
}

async function isFolder(real: string): Promise<boolean> {
  try {
    return (await fs.stat(real)).isDirectory();
  } catch {
    return false;
  }
}

function outcomeDetails(plan: CommandPlan, outcome: ProcessOutcome): Record<string, unknown> {
  return {
    argv: plan.argv,
    cwd: plan.cwd,
    timeoutS: plan.timeoutS,
    confined: plan.sandbox.confined,
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    timedOut: outcome.timedOut,
    cancelled: outcome.cancelled,
    durationMs: Math.round(outcome.durationMs),
    stdout: outcome.stdout.text,
    stderr: outcome.stderr.text,
    stdoutBytes: outcome.stdout.totalBytes,
    stderrBytes: outcome.stderr.totalBytes,
    stdoutOmittedBytes: outcome.stdout.omittedBytes,
    stderrOmittedBytes: outcome.stderr.omittedBytes,
  };
}
