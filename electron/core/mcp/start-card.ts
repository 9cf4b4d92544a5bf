/**
 * A server as a person is shown it (SPEC §10): the start card of a workspace's server, and
 * the target Settings lists. A workspace file can take any of the person's variables with
 * `${VAR}` and send it anywhere (`"Authorization": "Bearer ${GITHUB_TOKEN}"`), so the card
 * names each variable and the field it feeds, and a field a variable fed is shown as
 * written: a card goes into the log, and a value must never.
 */
import type { CommandSandbox, McpServerCardBody, McpVariableFeed } from '../../../shared/cards.js';
import type { McpServerConfig } from './mcp-config.js';

export interface StartCardInput {
  config: McpServerConfig;
  fingerprint: string;
  /** How a stdio server would run. */
  sandbox?: CommandSandbox;
  /** Set when the config differs from what the session allowed before. */
  changed?: string;
}

export function startCardBody({ config, fingerprint, sandbox, changed }: StartCardInput): McpServerCardBody {
  const t = config.transport;
  const common = { kind: 'mcp_server' as const, server: config.name, source: config.source };
  const tail = { variables: variableFeeds(config), fingerprint, ...(changed ? { changed } : {}) };
  if (t.type === 'http') {
    return { ...common, url: shownUrl(config), headerNames: Object.keys(t.headers).sort(), ...tail };
  }
  return {
    ...common,
    argv: shownArgv(config),
    cwd: shownField(config, 'cwd', t.cwd),
    envNames: Object.keys(t.env).sort(),
    ...(sandbox ? { sandbox } : {}),
    ...tail,
  };
}

/** Each of the person's variables and the field it feeds, in the file's order. */
export function variableFeeds(config: McpServerConfig): McpVariableFeed[] {
  return (config.variables ?? []).flatMap((source) =>
    source.variables.map((variable) => ({ field: source.field, variable })),
  );
}

/** A stdio server's argv, each part a variable fed as written. */
export function shownArgv(config: McpServerConfig): string[] {
  const t = config.transport;
  if (t.type !== 'stdio') return [];
  return [shownField(config, 'command', t.command), ...t.args.map((arg, i) => shownField(config, `args[${i}]`, arg))];
}

/** An HTTP server's URL, as written when a variable fed it (a URL can carry a key). */
export function shownUrl(config: McpServerConfig): string {
  return config.transport.type === 'http' ? shownField(config, 'url', config.transport.url) : '';
}

function shownField(config: McpServerConfig, field: string, value: string): string {
  return config.variables?.find((s) => s.field === field)?.written ?? value;
}
