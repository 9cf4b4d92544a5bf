/**
 * A server's identity (SPEC §10): the file that names it and its name in that file. Two
 * files may each name a server "github"; what the person disabled, denied or allowed of one
 * says nothing of the other, so every record of a server across files is keyed by this one
 * spelling. It is also what mcp-disabled.json holds, so it must not change. A name is letters,
 * digits, "_" and "-" (mcp-config.ts), so the last "#" always splits it from a path that has one.
 */
export interface ServerIdentity {
  /** The config file that names it. */
  source: string;
  name: string;
}

export function serverKey(server: ServerIdentity): string {
  return `${server.source}#${server.name}`;
}

/** The identity a start card or a start grant names (its `server` is the name). */
export function namedServer(named: { source: string; server: string }): ServerIdentity {
  return { source: named.source, name: named.server };
}
