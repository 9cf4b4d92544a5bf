/**
 * What a permission card shows, and the one exact grant that "Allow for this session"
 * would record. Pure data: the core builds these, the reducer and the UI read them.
 */

export type Answer = 'allow_once' | 'allow_session' | 'deny';
export const ANSWERS: readonly Answer[] = ['allow_once', 'allow_session', 'deny'];

/** One exact grant, as stored in meta.json. Matching is by exact equality, never by prefix. */
export type Grant =
  { kind: 'write'; path: string } | { kind: 'read'; path: string } | { kind: 'command'; argv: string[]; cwd: string };

export interface WriteCardBody {
  kind: 'write';
  tool: 'write_file' | 'search_replace';
  /** Absolute, resolved path the write lands on. */
  path: string;
  inside: boolean;
  /** True when the file does not exist yet. */
  creates: boolean;
  /** Unified diff (3 lines of context) of disk against the proposal; maybe truncated. */
  diff: string;
  diffTruncated: boolean;
  /** Byte size of the whole diff text, truncated or not. */
  diffBytes: number;
  /** Byte size of the proposed file content. */
  proposalBytes: number;
  /** Byte size of the file on disk when the card went up, or null when absent. */
  beforeBytes: number | null;
  /** SHA-256 (hex) of the bytes on disk when the card went up, or "absent". */
  digest: string;
  /** Content-addressed blob (sha256 hex) in the session folder holding every proposed byte. */
  proposalBlob: string;
  /** Set when the diff could not be computed within bounds and a whole-file hunk is shown. */
  diffNote?: string;
}

export interface ReadCardBody {
  kind: 'read';
  tool: 'read_file' | 'grep' | 'list_dir';
  /** Absolute, resolved path outside the workspace. */
  path: string;
}

export interface CommandCardBody {
  kind: 'command';
  tool: 'run';
  argv: string[];
  /** Absolute, resolved working folder. */
  cwd: string;
  /** Present only when the call asked for a timeout other than the default. */
  timeoutS?: number;
}

export type CardBody = WriteCardBody | ReadCardBody | CommandCardBody;

export function grantFor(body: CardBody): Grant {
  switch (body.kind) {
    case 'write':
      return { kind: 'write', path: body.path };
    case 'read':
      return { kind: 'read', path: body.path };
    case 'command':
      return { kind: 'command', argv: [...body.argv], cwd: body.cwd };
  }
}

/** The words a card shows next to "Allow for this session". */
export function describeGrant(grant: Grant): string {
  switch (grant.kind) {
    case 'write':
      return `Allow writes to ${grant.path} (write_file and search_replace on this exact file) for the rest of this session.`;
    case 'read':
      return `Allow reading ${grant.path} (this exact path, outside the workspace) for the rest of this session.`;
    case 'command':
      return `Allow running exactly ${JSON.stringify(grant.argv)} in ${grant.cwd} for the rest of this session. Any other argv or folder still asks.`;
  }
}

export function sameGrant(a: Grant, b: Grant): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'command' && b.kind === 'command') {
    return a.cwd === b.cwd && a.argv.length === b.argv.length && a.argv.every((s, i) => s === b.argv[i]);
  }
  return (a as { path: string }).path === (b as { path: string }).path;
}
