/**
 * No answer by accident (UI.md card rule 4): a card's answers stay disarmed for
 * ARMING_MS after it appears and again whenever it changes (a new `key`, the card id).
 * Armed is derived from the key, so a new card is disarmed on its very first render.
 *
 * Coming back to the window counts as the card appearing: a card that went up while the
 * person looked elsewhere is new to them, and the click that brings the window forward
 * must not land on "Allow".
 */
import { useEffect, useState } from 'react';

export const ARMING_MS = 500;

export function useArming(key: string, ms: number = ARMING_MS): boolean {
  const [returns, setReturns] = useState(0);
  const [armedFor, setArmedFor] = useState<string | null>(null);
  const current = `${returns}:${key}`;

  useEffect(() => {
    const back = () => {
      if (document.visibilityState === 'visible') setReturns((n) => n + 1);
    };
    window.addEventListener('focus', back);
    document.addEventListener('visibilitychange', back);
    return () => {
      window.removeEventListener('focus', back);
      document.removeEventListener('visibilitychange', back);
    };
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => setArmedFor(current), ms);
    return () => clearTimeout(timer);
  }, [current, ms]);

  return armedFor === current;
}
