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

/** Of the server's config: command, args, env names, folder, URL and header names (values may be secrets, so never shown or kept). */
export function serverFingerprint(server: McpServerConfig): string {
  const t = server.transport;
  const shape =
    t.type === 'stdio'
      ? {
          scope: server.scope,
          type: 'stdio',
          command: t.command,
          args: t.args,
          env: Object.keys(t.env).sort(),
          cwd: t.cwd,
        }
      : { scope: server.scope, type: 'http', url: t.url, headers: Object.keys(t.headers).sort() };
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
