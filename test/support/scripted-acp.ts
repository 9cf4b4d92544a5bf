/**
 * The scripted ACP agent (scripted-acp-agent.ts) as a test starts it: a script written to
 * a file, a launcher that spawns the real process through the process room, and the
 * journal of what reached it.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentStartCardBody } from '../../shared/cards.js';
import type { SessionAgent } from '../../shared/agents.js';
import { acpDriver, type AcpDriverOptions } from '../../electron/core/agents/acp-driver.js';
import { agentProcessOf, type AgentProcess } from '../../electron/core/agents/agent-process.js';
import { ProcessGroup } from '../../electron/core/process/process-group.js';
import type { AgentScript } from './scripted-acp-agent.js';

export type { AgentScript, ScriptStep } from './scripted-acp-agent.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const AGENT_FILE = path.join(HERE, 'scripted-acp-agent.ts');
/** `--import tsx` is resolved from the working folder: the repository's. */
const REPO = path.resolve(HERE, '..', '..');
/** A key the agent "was given": a test that prints it on stderr sees it never reach the log. */
export const PLANTED_KEY = 'sk-planted-0123456789abcdef';
export const SCRIPTED_AGENT: SessionAgent = { id: 'gemini-cli', label: 'Scripted agent', version: '0.0.1' };

export interface ScriptedAgent {
  dir: string;
  /** The script as the next launch reads it: a test may change it between launches. */
  script: Omit<AgentScript, 'journal'>;
  launches: number;
  /** The journal lines so far. */
  journal(): Promise<Record<string, unknown>[]>;
  launch(signal: AbortSignal): Promise<AgentProcess>;
  /** The start card's body; `fingerprint` may be changed by a test to stand for a changed launch. */
  startBody: AgentStartCardBody;
  close(): Promise<void>;
}

export async function scriptedAgent(script: Omit<AgentScript, 'journal'>): Promise<ScriptedAgent> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-acp-'));
  const journalFile = path.join(dir, 'journal.jsonl');
  const scriptFile = path.join(dir, 'script.json');
  const started: AgentProcess[] = [];
  const a: ScriptedAgent = {
    dir,
    script,
    launches: 0,
    startBody: {
      kind: 'agent_start',
      agent: SCRIPTED_AGENT.id,
      label: SCRIPTED_AGENT.label,
      version: SCRIPTED_AGENT.version,
      argv: ['node', 'scripted-acp-agent.ts'],
      readOnly: [],
      writable: [],
      domains: [],
      envNames: [],
      fingerprint: 'launch-1',
    },
    async journal() {
      const text = await fs.readFile(journalFile, 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    },
    async launch(signal) {
      a.launches++;
      await fs.writeFile(scriptFile, JSON.stringify({ ...a.script, journal: journalFile }));
      const group = await ProcessGroup.start({
        argv: [process.execPath, '--import', 'tsx', AGENT_FILE, scriptFile],
        cwd: REPO,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir },
        stdin: 'pipe',
        signal,
      });
      const p = agentProcessOf(group, [PLANTED_KEY]);
      started.push(p);
      return p;
    },
    async close() {
      await Promise.all(started.map((p) => p.stop()));
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
  return a;
}

/** The driver over a scripted agent, with short limits a test can wait out. */
export function scriptedDriver(agent: ScriptedAgent, extra: Partial<AcpDriverOptions> = {}) {
  return acpDriver({
    agent: SCRIPTED_AGENT,
    startPlan: () => Promise.resolve({ ...agent.startBody }),
    launch: (signal) => agent.launch(signal),
    mcpServers: () => [],
    initializeTimeoutMs: 10_000,
    cancelGraceMs: 3_000,
    ...extra,
  });
}
