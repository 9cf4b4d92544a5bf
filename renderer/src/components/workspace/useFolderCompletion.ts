/**
 * Folder suggestions for what is typed, from `folders.complete`, a moment after typing
 * stops. A reply that arrives after a newer one was asked for is dropped.
 */
import { useEffect, useRef, useState } from 'react';
import { useApi } from '../../api/api-context';

const PAUSE_MS = 120;

export function useFolderCompletion(prefix: string): string[] {
  const api = useApi();
  const [folders, setFolders] = useState<string[]>([]);
  const asked = useRef(0);

  useEffect(() => {
    const ticket = ++asked.current;
    if (prefix.trim() === '') {
      setFolders([]);
      return;
    }
    const timer = setTimeout(() => {
      void api['folders.complete']({ prefix }).then((reply) => {
        // A half-typed path that matches nothing is normal: no suggestions, no error.
        if (ticket === asked.current) setFolders(reply.ok ? reply.data.folders : []);
      });
    }, PAUSE_MS);
    return () => clearTimeout(timer);
  }, [api, prefix]);

  return folders;
}
