/**
 * Histories driven by an external agent instead of the native runner (SPEC §14): each
 * session's turns go through the ACP driver to the scripted agent in puppet mode, a real
 * process. A model call the history makes becomes the agent's move where ACP has one: a
 * write is fs/write_text_file, a read fs/read_text_file, a command a permission request
 * (an agent_ask card); the rest are said, not done. Every invariant must hold as for the
 * runner: the agent's requests reach the same gate.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionAgent } from '../../shared/agents.js';
import type { AgentStartCardBody } from '../../shared/cards.js';
import { acpDriver } from '../../electron/core/agents/acp-driver.js';
import { agentProcessOf, type AgentProcess } from '../../electron/core/agents/agent-process.js';
import { ProcessGroup } from '../../electron/core/process/process-group.js';
import type { DriverFactory } from '../../electron/core/sessions/session-driver.js';
import { PuppetAgent, type PuppetMove } from './puppet-agent.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const AGENT_FILE = path.join(HERE, '..', 'support', 'scripted-acp-agent.ts');
const REPO = path.resolve(HERE, '..', '..');

export const PROPERTY_AGENT: SessionAgent = { id: 'gemini-cli', label: 'Puppet agent', version: '0.0.1' };

/** The start card the driver is given: a card for it must show exactly this. */
export const PROPERTY_START_BODY: AgentStartCardBody = {
  kind: 'agent_start',
  agent: PROPERTY_AGENT.id,
  label: PROPERTY_AGENT.label,
  version: PROPERTY_AGENT.version,
  argv: ['node', 'scripted-acp-agent.ts', '--puppet'],
  readOnly: [],
  writable: [],
  domains: [],
  envNames: [],
  fingerprint: 'property-launch',
};

/** The options every permission request of the puppet offers. */
export const ASK_OPTIONS: { optionId: string; name: string; kind: 'allow_once' | 'allow_always' | 'reject_once' }[] = [
  { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];
export const ASK_PREFIX = 'run ';

export class AgentMode {
  private readonly stops: (() => Promise<void>)[] = [];
  private readonly processes: AgentProcess[] = [];

  private constructor(
    readonly puppet: PuppetAgent,
    private readonly dir: string,
  ) {}

  static async start(dir: string): Promise<AgentMode> {
    await fs.mkdir(dir, { recursive: true });
    return new AgentMode(await PuppetAgent.listen(path.join(dir, 'puppet.sock')), dir);
  }

  /** A driver per session, each over its own agent process. */
  driverFactory(): DriverFactory {
    return (seam) => {
      const factory = acpDriver({
        agent: PROPERTY_AGENT,
        startPlan: () => Promise.resolve({ ...PROPERTY_START_BODY }),
        launch: (signal) => this.launch(signal),
        mcpServers: () => [],
        initializeTimeoutMs: 20_000,
        cancelGraceMs: 3_000,
      });
      this.stops.push(factory.stop);
      return factory(seam);
    };
  }

  /** The history's model call as the agent's move. */
  move(tool: string, args: unknown, root: string): PuppetMove {
    const a = (args ?? {}) as Record<string, unknown>;
    const where = (p: unknown) => (typeof p === 'string' && p.length > 0 ? path.resolve(root, p) : null);
    const at = where(a.path);
    if (tool === 'write_file' && at && typeof a.content === 'string')
      return { write: { path: at, content: a.content } };
    if (tool === 'read_file' && at)
      return { read: { path: at, ...(typeof a.line === 'number' ? { line: a.line } : {}) } };
    if (tool === 'run' && Array.isArray(a.argv)) {
      return { ask: { title: `${ASK_PREFIX}${a.argv.join(' ')}`, kind: 'execute', options: ASK_OPTIONS } };
    }
    return { say: [`(${tool} has no ACP move)`] };
  }

  /** The agents of a core that stopped: gone with it, as the jail's processes are. */
  async stopAgents(): Promise<void> {
    await Promise.all(this.stops.splice(0).map((stop) => stop()));
    await Promise.all(this.processes.splice(0).map((p) => p.stop()));
  }

  async close(): Promise<void> {
    await this.stopAgents();
    await this.puppet.close();
    await fs.rm(this.dir, { recursive: true, force: true });
  }

  private async launch(signal: AbortSignal): Promise<AgentProcess> {
    const script = path.join(this.dir, 'script.json');
    const journal = path.join(this.dir, 'journal.jsonl');
    await fs.writeFile(script, JSON.stringify({ journal, puppet: this.puppet.socketPath, turns: [] }));
    const group = await ProcessGroup.start({
      argv: [process.execPath, '--import', 'tsx', AGENT_FILE, script],
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: this.dir },
      stdin: 'pipe',
      signal,
    });
    const p = agentProcessOf(group);
    this.processes.push(p);
    return p;
  }
}
