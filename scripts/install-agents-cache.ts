/**
 * CI's agent cache (issues 33 and 34): installs the pinned Claude Code, Gemini CLI, Codex and
 * opencode adapters into
 * `$GATEHOUSE_AGENT_CACHE` (default /var/cache/gatehouse-agents), laid out as the data
 * folder's `agents/<id>/pkg`, with the app's own installer; never into Gatehouse's own
 * node_modules. An install already at its pin is kept. Every pin in the catalog, the gated
 * ones and the others, is checked against the npm registry first: the version exists and
 * its bin is the catalog's entry. Exits non-zero, saying why, when anything fails, so the
 * tests that need an agent never run against a missing one.
 *
 *   node --import tsx scripts/install-agents-cache.ts
 */
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { AGENT_IDS, type AgentId, type AgentProgress } from '../shared/agents.js';
import { AGENT_CATALOG } from '../electron/core/agents/agent-catalog.js';
import { entryPackageDir } from '../electron/core/agents/agent-folder.js';
import { AgentInstalls } from '../electron/core/agents/agent-installs.js';
import type { AgentSpec } from '../electron/core/agents/agent-spec.js';
import { commandEnv } from '../electron/core/tools/command-env.js';

/** The agents the end-to-end tests run for real. */
const CACHED: readonly AgentId[] = ['claude-code', 'gemini-cli', 'codex', 'opencode'];

const DEFAULT_AGENT_CACHE = '/var/cache/gatehouse-agents';

async function main(): Promise<void> {
  const root = process.env.GATEHOUSE_AGENT_CACHE || DEFAULT_AGENT_CACHE;
  const env = commandEnv(process.env);
  for (const id of AGENT_IDS) checkPin(AGENT_CATALOG[id], env);
  const installs = new AgentInstalls({ root, env: () => env });
  for (const id of CACHED) await cache(installs, AGENT_CATALOG[id], root);
}

/** The pinned version is on the registry, and its bin is the catalog's entry. */
function checkPin(spec: AgentSpec, env: NodeJS.ProcessEnv): void {
  const name = entryPackageDir(spec.entry).replace(/^.*node_modules\//, '');
  const out = execFileSync('npm', ['view', `${name}@${spec.version}`, 'version', 'bin', '--json'], {
    env,
    encoding: 'utf8',
  });
  const view = JSON.parse(out) as { version?: string; bin?: Record<string, string> | string };
  if (view.version !== spec.version) throw new Error(`${name}@${spec.version} is not on the npm registry`);
  const bins = typeof view.bin === 'string' ? [view.bin] : Object.values(view.bin ?? {});
  const entryInPackage = spec.entry.slice(entryPackageDir(spec.entry).length + 1);
  if (!bins.some((bin) => bin.replace(/^\.\//, '') === entryInPackage)) {
    throw new Error(
      `${name}@${spec.version}'s bin is ${JSON.stringify(view.bin)}, not the catalog's ${entryInPackage}`,
    );
  }
  console.log(`== ${spec.label}: ${name}@${spec.version} is on the registry, bin ${entryInPackage}`);
}

async function cache(installs: AgentInstalls, spec: AgentSpec, root: string): Promise<void> {
  await installs.recover(spec.id);
  const now = await installs.installed(spec);
  if (now?.version === spec.version) {
    console.log(`== ${spec.label} ${spec.version}: already in ${now.prefix}`);
    return;
  }
  console.log(`== ${spec.label} ${spec.version}: installing into ${root}/${spec.id}/pkg`);
  const started = performance.now();
  const done = await installs.install(spec, printer());
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`== ${spec.label} ${done.version}: installed in ${seconds} s (${done.entryPath})`);
}

/** Prints each phase once and the download in tenths, not every package. */
function printer(): (p: AgentProgress) => void {
  let last = '';
  return (p) => {
    const step = `${p.phase} ${p.fraction === undefined ? '' : Math.floor(p.fraction * 10)}`;
    if (step === last && p.phase !== 'failed') return;
    last = step;
    console.log(`   ${p.phase}${p.fraction === undefined ? '' : ` ${Math.round(p.fraction * 100)}%`}: ${p.line}`);
  };
}

main().catch((err: unknown) => {
  console.error(`agent cache: ${(err as Error).message}`);
  process.exit(1);
});
