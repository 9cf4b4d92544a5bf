/**
 * One regular file's bytes from a snapshot: its entry found with `ls-tree` (a link, a
 * missing path or a left-out file has no blob entry), then the blob read as it is stored
 * (the store keeps bytes unfiltered: SHADOW_ATTRIBUTES turns every conversion off).
 */
import { LONG_TIMEOUT_MS, type ShadowGit } from './shadow-git.js';

export async function readBlob(shadow: ShadowGit, snapshot: string, path: string): Promise<Buffer | null> {
  const { stdout } = await shadow.run({
    what: `find ${path} in a snapshot`,
    args: ['ls-tree', '-z', '--full-tree', snapshot, '--', path],
  });
  // "<mode> <type> <id>\t<path>\0"
  const entry = stdout.toString('utf8').split('\0')[0] ?? '';
  const [meta, name] = entry.split('\t');
  const [mode, type, id] = (meta ?? '').split(' ');
  if (name !== path || type !== 'blob' || !id || !/^100(644|755)$/.test(mode ?? '')) return null;
  const blob = await shadow.run({
    what: `read ${path} from a snapshot`,
    args: ['cat-file', 'blob', id],
    timeoutMs: LONG_TIMEOUT_MS,
  });
  return blob.stdout;
}
