/**
 * What a launcher hands the ACP driver (acp-design.md): the agent's stdio, how it ended,
 * the last of what it said on stderr, and a stop that ends it whole. The jail
 * (agent-jail.ts) makes one; tests make one with a plain spawn.
 */
export interface AgentProcess {
  stdin: NodeJS.WritableStream;
  stdout: NodeJS.ReadableStream;
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** The last lines of its stderr, for "the agent stopped: …" (its key never among them). */
  stderrTail(): string;
  /** Ends the whole jail and everything it started, and reaps it. */
  stop(): Promise<void>;
}
