/** A set of file paths a view keeps (the diffs opened, the files ticked), each turned on or off. */
import { useCallback, useState } from 'react';

export interface PathSet {
  has(path: string): boolean;
  set(path: string, on: boolean): void;
  list(): string[];
}

export function usePathSet(initial: () => Iterable<string> = () => []): PathSet {
  const [paths, setPaths] = useState<ReadonlySet<string>>(() => new Set(initial()));
  const set = useCallback((path: string, on: boolean) => {
    setPaths((prev) => {
      const next = new Set(prev);
      if (on) next.add(path);
      else next.delete(path);
      return next;
    });
  }, []);
  return { has: (path) => paths.has(path), set, list: () => [...paths] };
}
