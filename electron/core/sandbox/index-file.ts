/**
 * The gitlinks of a git index file (`.git/index`), read from its bytes: the app learns a
 * workspace's submodules without running the workspace's git (gitlinks.ts says why).
 *
 * The format (git's Documentation/gitformat-index.txt): a header `DIRC`, the version (2, 3
 * or 4) and the number of entries; then each entry: 40 bytes of stat data with the mode at
 * 24, the object name (20 bytes, 32 in a SHA-256 repository), 16 bits of flags, 16 more
 * when the extended flag is set (version 3 and later), then the path. Versions 2 and 3 end
 * the path with 1 to 8 NULs so an entry is a multiple of 8 bytes; version 4 has no padding
 * and writes each path as how many bytes to drop from the end of the previous one and the
 * NUL-terminated rest. Extensions follow the entries; only `link` (a split index, whose
 * entries are mostly in a shared file) matters here, the rest are skipped by their size.
 *
 * Any inconsistency (a bad header, an entry running past the end) is an index not
 * understood: null, and the caller falls back. The work is bounded by the file's size.
 */

const SIGNATURE = 'DIRC';
const GITLINK_MODE = 0o160000;
const MODE_TYPE_MASK = 0o170000;
const STAT_BYTES = 40;
const MODE_OFFSET = 24;
const EXTENDED_FLAG = 0x4000;

export interface IndexGitlinks {
  /** The paths of the gitlinks, each once (a conflict lists one in several stages). */
  paths: string[];
  /** A split index: the name (hex) of the shared index that holds the other entries; else null. */
  sharedIndex: string | null;
}

/** The gitlinks in `bytes`, an index file; null when it is not an index this reads. */
export function gitlinksOfIndex(bytes: Buffer, hashSize: 20 | 32): IndexGitlinks | null {
  if (bytes.length < 12 + hashSize || bytes.toString('latin1', 0, 4) !== SIGNATURE) return null;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = bytes.readUInt32BE(8);
  const end = bytes.length - hashSize; // the checksum of the whole file closes it
  const paths = new Set<string>();
  let offset = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const entry = readEntry(bytes, offset, end, version, hashSize, previous);
    if (!entry) return null;
    if ((entry.mode & MODE_TYPE_MASK) === GITLINK_MODE) paths.add(entry.path.toString('utf8'));
    previous = entry.path;
    offset = entry.next;
  }
  const sharedIndex = linkExtension(bytes, offset, end, hashSize);
  if (sharedIndex === undefined) return null;
  return { paths: [...paths], sharedIndex };
}

interface Entry {
  mode: number;
  path: Buffer;
  next: number;
}

function readEntry(
  bytes: Buffer,
  start: number,
  end: number,
  version: number,
  hashSize: number,
  previous: Buffer,
): Entry | null {
  const flagsAt = start + STAT_BYTES + hashSize;
  if (flagsAt + 2 > end) return null;
  const mode = bytes.readUInt32BE(start + MODE_OFFSET);
  const flags = bytes.readUInt16BE(flagsAt);
  const extended = (flags & EXTENDED_FLAG) !== 0;
  if (extended && version < 3) return null;
  let at = flagsAt + 2 + (extended ? 2 : 0);
  if (version === 4) {
    const strip = readVarint(bytes, at, end);
    if (!strip || strip.value > previous.length) return null;
    at = strip.next;
    const nul = bytes.indexOf(0, at);
    if (nul < 0 || nul >= end) return null;
    const path = Buffer.concat([previous.subarray(0, previous.length - strip.value), bytes.subarray(at, nul)]);
    return { mode, path, next: nul + 1 };
  }
  const nul = bytes.indexOf(0, at);
  if (nul < 0 || nul >= end) return null;
  // The entry, padded with NULs to a multiple of 8 bytes (at least one NUL).
  const next = start + ((nul - start + 8) & ~7);
  if (next > end) return null;
  return { mode, path: bytes.subarray(at, nul), next };
}

/** Git's offset varint: 7 bits a byte, most significant first, each continuation adding one. */
function readVarint(bytes: Buffer, at: number, end: number): { value: number; next: number } | null {
  let value = 0;
  // Five bytes reach past any path length; more is a malformed index.
  for (let i = at; i < end && i < at + 5; i++) {
    const c = bytes[i] as number;
    value = value * 128 + (c & 0x7f);
    if ((c & 0x80) === 0) return { value, next: i + 1 };
    value += 1;
  }
  return null;
}

/** The shared index a `link` extension names (hex), null when there is none, undefined when the extensions do not add up. */
function linkExtension(bytes: Buffer, start: number, end: number, hashSize: number): string | null | undefined {
  let at = start;
  while (at < end) {
    if (at + 8 > end) return undefined;
    const signature = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32BE(at + 4);
    const data = at + 8;
    if (data + size > end) return undefined;
    if (signature === 'link' && size >= hashSize) return bytes.toString('hex', data, data + hashSize);
    at = data + size;
  }
  return null;
}
