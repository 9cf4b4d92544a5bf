/**
 * What a permission card shows, and the one exact grant that "Allow for this session"
 * would record. Pure data: the core builds these, the reducer and the UI read them.
 */

export type Answer = 'allow_once' | 'allow_session' | 'deny';
export const ANSWERS: readonly Answer[] = ['allow_once', 'allow_session', 'deny'];

export type ReadTool = 'read_file' | 'grep' | 'list_dir';

/**
 * One exact grant, as stored in meta.json. Matching is by exact equality, never by prefix.
 * A read grant names its tool too: allowing list_dir on a folder must not let grep read
 * every file below it.
 */
export type Grant =
  | { kind: 'write'; path: string }
  | { kind: 'read'; tool: ReadTool; path: string }
  | { kind: 'command'; argv: string[]; cwd: string };

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
  tool: ReadTool;
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
      return { kind: 'read', tool: body.tool, path: body.path };
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
      return `Allow ${READ_WORDS[grant.tool]} ${grant.path} (this exact path, outside the workspace, with ${grant.tool} only) for the rest of this session.`;
    case 'command':
      return `Allow running exactly ${JSON.stringify(grant.argv)} in ${grant.cwd} for the rest of this session. Any other argv or folder still asks.`;
  }
}

const READ_WORDS: Record<ReadTool, string> = {
  read_file: 'reading the file',
  list_dir: 'listing the folder',
  grep: 'searching everything under',
};

export function sameGrant(a: Grant, b: Grant): boolean {
  switch (a.kind) {
    case 'write':
      return b.kind === 'write' && a.path === b.path;
    case 'read':
      return b.kind === 'read' && a.tool === b.tool && a.path === b.path;
    case 'command':
      return (
        b.kind === 'command' &&
        a.cwd === b.cwd &&
        a.argv.length === b.argv.length &&
        a.argv.every((s, i) => s === b.argv[i])
      );
  }
}
