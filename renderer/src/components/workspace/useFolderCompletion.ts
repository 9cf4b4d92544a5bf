/**
 * Folder suggestions for what is typed, from `folders.complete`, a moment after typing
 * stops. A reply that arrives after a newer one was asked for is dropped (useCall).
 */
import { useEffect } from 'react';
import { useCall } from '../../api/use-call';

const PAUSE_MS = 120;
const NONE: string[] = [];

export function useFolderCompletion(prefix: string): string[] {
  const complete = useCall((api, typed: string) => api['folders.complete']({ prefix: typed }));
  const { run, reset } = complete;

  useEffect(() => {
    if (prefix.trim() === '') {
      reset();
      return;
    }
    const timer = setTimeout(() => void run(prefix), PAUSE_MS);
    return () => clearTimeout(timer);
  }, [run, reset, prefix]);

  // A half-typed path that matches nothing is normal: no suggestions, no error.
  return complete.error === null ? (complete.data?.folders ?? NONE) : NONE;
}
