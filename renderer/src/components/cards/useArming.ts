/**
 * No answer by accident (UI.md card rule 4): a card's answers stay disarmed for
 * ARMING_MS after it appears and again whenever it changes (a new `key`, the card id).
 * Armed is derived from the key, so a new card is disarmed on its very first render.
 */
import { useEffect, useState } from 'react';

export const ARMING_MS = 500;

export function useArming(key: string, ms: number = ARMING_MS): boolean {
  const [armedKey, setArmedKey] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setArmedKey(key), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return armedKey === key;
}
