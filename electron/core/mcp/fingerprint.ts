/**
 * Pinning (SPEC §10): what a person allowed of an MCP server or tool, as one hash. A grant
 * and a server's start are bound to it, so a changed command, URL, tool description or
 * input schema matches nothing the person said yes to. Canonical JSON (RFC 8785, the
 * `canonicalize` package) makes the hash independent of key order.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { McpToolShape } from '../../../shared/cards.js';
import type { McpServerConfig } from './mcp-config.js';

/**
 * Of the server's config as it would start: command, args, folder, URL, every variable and
 * header with its value after `${VAR}` expansion, and which of the person's variables feed
 * which field. A changed value (a rotated token, another $HOME) is a changed server, so it
 * asks again and voids the session's grants. The values go only into this SHA-256: no card,
 * log or grant holds them.
 */
export function serverFingerprint(server: McpServerConfig): string {
  const t = server.transport;
  const fed = (server.variables ?? []).map((s) => ({ field: s.field, variables: s.variables }));
  const shape =
    t.type === 'stdio'
      ? { scope: server.scope, type: 'stdio', command: t.command, args: t.args, env: t.env, cwd: t.cwd, fed }
      : { scope: server.scope, type: 'http', url: t.url, headers: t.headers, fed };
  return hash(canonical(shape));
}

/** Of a tool as its server lists it: name, description and input schema. */
export function toolFingerprint(name: string, tool: McpToolShape): string {
  return hash(canonical({ name, description: tool.description, inputSchema: tool.inputSchema ?? null }));
}

/** What a call's grant is bound to: the server's config and the tool. */
export function callFingerprint(serverFp: string, toolFp: string): string {
  return hash(`${serverFp}:${toolFp}`);
}

/** Arguments as canonical JSON: what allow_session binds, whatever order the model wrote the keys in. */
export function canonical(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('the value cannot be written as JSON');
  return text;
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
