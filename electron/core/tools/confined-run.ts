/**
 * One process run, inside the sandbox or not (SPEC §9): the seam where a planned spec
 * becomes a confined one (the sandbox's `confine`), then runs in its process group with
 * the same limits, caps and stop rules as any command.
 */
import { constants as osConstants } from 'node:os';
import type { Sandbox, SandboxProfile } from '../sandbox/sandbox.js';
import { CommandStartError, runInProcessGroup, type ProcessOutcome, type ProcessSpec } from './process-group.js';

export interface Confine {
  sandbox: Sandbox;
  profile: SandboxProfile;
}

/** What a run ended with, and, confined with network, what the proxy refused in one line. */
export type RunOutcome = ProcessOutcome & { networkRefusal?: string };

export async function runConfinedOrNot(spec: ProcessSpec, confine: Confine | undefined): Promise<RunOutcome> {
  // Aborted already: starts nothing, confined or not.
  if (!confine || spec.signal?.aborted)
    return runInProcessGroup({ ...spec, env: { ...spec.env, ...spec.declaredEnv } });
  const confined = await confine.sandbox.confine(spec, confine.profile);
  try {
    const outcome = await runInProcessGroup({
      ...spec,
      argv: confined.argv,
      cwd: confined.cwd,
      env: confined.env,
      signalInside: confined.signalInside,
      initPidOnFd3: confined.initPidOnFd3,
      inputOnFd4: confined.inputOnFd4,
    });
    const refusal = confined.networkRefusal?.() ?? null;
    return { ...wrapperOutcome(outcome, spec.argv[0] ?? ''), ...(refusal ? { networkRefusal: refusal } : {}) };
  } finally {
    // The result waits for what the run put in the workspace (an empty .git standing in) to go,
    // so the next step sees the workspace as the command left it; the private /tmp goes after.
    await confined.release().catch(() => {});
  }
}

/**
 * bwrap reports its command's end as an exit status: 128+n when signal n ended it, as
 * shells do (a command that itself exits 128+n reads the same). A command bwrap could
 * not start at all (not found, not executable, the sandbox refused to set up) is a start
 * error, as for an unconfined run.
 */
function wrapperOutcome(outcome: ProcessOutcome, program: string): ProcessOutcome {
  const { exitCode } = outcome;
  const stderr = outcome.stderr.text;
  if (exitCode === 1 && outcome.stdout.totalBytes === 0 && /^bwrap: [^\n]*\n?$/.test(stderr)) {
    if (/^bwrap: execvp [^\n]*: No such file or directory/.test(stderr)) {
      throw new CommandStartError(`command not found: ${program}`, 'ENOENT');
    }
    if (/^bwrap: execvp [^\n]*: Permission denied/.test(stderr)) {
      throw new CommandStartError(`permission denied: ${program} is not executable`, 'EACCES');
    }
    throw new CommandStartError(`the sandbox could not start ${program}: ${stderr.trim()}`, 'ESANDBOX');
  }
  if (outcome.signal === null && exitCode !== null && exitCode > 128) {
    const name = signalName(exitCode - 128);
    if (name) return { ...outcome, exitCode: null, signal: name };
  }
  return outcome;
}

function signalName(n: number): NodeJS.Signals | null {
  const entry = Object.entries(osConstants.signals).find(([, value]) => value === n);
  return entry ? (entry[0] as NodeJS.Signals) : null;
}
