/**
 * What Gatehouse knows of one external agent (SPEC §14), as the catalog (agent-catalog.ts)
 * writes it and the jail (agent-jail.ts) launches it: which npm packages make it, at which
 * pinned version (the installer puts them in `<dataDir>/agents/<id>/pkg`), how its process
 * is started (`node <entry> <args>`), which hosts it may reach and which variable holds its
 * key. Plain data, checked once by a schema so that a bad entry is a clear error before
 * anything starts.
 */
import { z } from 'zod';
import { AGENT_IDS } from '../../../shared/agents.js';
import { domainListProblem } from '../sandbox/network/domain-policy.js';

/** An environment variable's name: what a shell would take. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A path inside the install prefix: relative, with no `..`. */
const insidePrefix = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split(/[\\/]/).includes('..'), {
    message: 'the entry is a path inside the install prefix (relative, no ..)',
  });

export const agentSpecSchema = z.object({
  id: z.enum(AGENT_IDS),
  label: z.string().min(1),
  /** The pinned version Gatehouse installs. */
  version: z.string().min(1),
  /** npm packages, pinned (`name@version`), installed into `<dataDir>/agents/<id>/pkg`. */
  packages: z.array(z.string().min(1)).min(1),
  /** The file node runs, relative to the install prefix; it never leaves the prefix. */
  entry: insidePrefix,
  /**
   * A native program run as it is (no node), per `<platform>-<arch>`, inside the prefix:
   * for an agent whose package's bin is a stub its install script would replace (npm runs
   * no script here), the program its per-platform package brings.
   */
  native: z.record(z.string(), insidePrefix).optional(),
  args: z.array(z.string()),
  /** Its model's hosts, the default of what its process may reach through the proxy. */
  domains: z.array(z.string()).refine((d) => d.length === 0 || domainListProblem(d) === null, {
    message: 'the domain list is not valid',
  }),
  /** The variable its own API key is read from, passed in by name from the app's environment. */
  keyVariable: z.string().regex(ENV_NAME),
  /** Fixed extras for its environment (never secrets): e.g. ENABLE_TOOL_SEARCH=false. */
  env: z.record(z.string().regex(ENV_NAME), z.string()),
  /** Whether the gate can hold it, or why not (it writes and runs by itself whatever it is told). */
  gated: z.union([z.literal(true), z.object({ reason: z.string().min(1) })]),
  /**
   * Usable only in a session place of its own (SPEC §15): it cannot be held to the gate,
   * so it runs with its place writable and the person's folder out of its sight.
   */
  staged: z.literal(true).optional(),
});

export type AgentSpec = z.infer<typeof agentSpecSchema>;

/**
 * The environment Claude Code needs to be held to the gate: its MCP tools listed up front
 * (with tool search on, the gate's tools hide behind a search tool), and no traffic
 * beyond its model's (telemetry and update checks would be refused by the proxy anyway).
 */
export const CLAUDE_CODE_ENV: Readonly<Record<string, string>> = {
  ENABLE_TOOL_SEARCH: 'false',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
};

/** The spec, checked; throws with the first problem in words. */
export function checkAgentSpec(spec: unknown): AgentSpec {
  const parsed = agentSpecSchema.safeParse(spec);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`bad agent spec: ${issue?.path.join('.') || 'spec'}: ${issue?.message ?? 'invalid'}`);
}
