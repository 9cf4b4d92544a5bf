/**
 * An external agent's process as its driver holds it (SPEC §14): the pipes ACP runs over,
 * how it ended, the last of what it said on stderr (for "the agent stopped: …"), and a
 * stop that takes the whole jail with it. The jail builds one in the app; tests start the
 * scripted agent through the process room and wrap it the same way.
 */
import type { ProcessGroup } from '../process/process-group.js';

export interface AgentProcess {
  stdin: NodeJS.WritableStream;
  stdout: NodeJS.ReadableStream;
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** The last lines it wrote on stderr. */
  stderrTail(): string;
  /** Stops the whole process group (and its jail); once, however often asked. */
  stop(): Promise<void>;
}

/** Kept of stderr: enough for the last lines of a stack trace, never a flood. */
const STDERR_TAIL_BYTES = 4096;

/**
 * A process-room group as an agent process: its stderr tail kept, its stop releasing what
 * its sandbox set up. `secrets` are values the process was given (its API key): an agent
 * that prints one on stderr must not put it in the log, so the tail never holds them.
 */
export function agentProcessOf(group: ProcessGroup, secrets: readonly string[] = []): AgentProcess {
  const { stdin, stdout, stderr } = group;
  if (!stdin || !stdout) throw new Error('an agent process needs piped stdin and stdout');
  let tail = '';
  stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
  });
  // A pipe that breaks as the process dies must not throw out of the app.
  for (const s of [stdin, stdout, stderr]) s?.on('error', () => {});
  let stopping: Promise<void> | null = null;
  return {
    stdin,
    stdout,
    exited: group.exited,
    stderrTail: () => redact(tail, secrets).trim().split('\n').slice(-10).join('\n'),
    stop: () => (stopping ??= group.stop().then(() => group.release())),
  };
}

/** Every secret's value (of a length that cannot be a common word) replaced by a mark. */
function redact(text: string, secrets: readonly string[]): string {
  return secrets.filter((v) => v.length >= 8).reduce((t, v) => t.replaceAll(v, '[redacted]'), text);
}
