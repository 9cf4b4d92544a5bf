import path from 'node:path';

/** Whether `p` is `root` or below it (both absolute). */
export function isWithin(p: string, root: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
