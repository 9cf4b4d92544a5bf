/**
 * A warning on a card, right before its answers (UI.md card rule 7): amber, boxed, with a
 * ⚠ that only repeats the words, and a note to screen readers.
 */
import type { ReactNode } from 'react';

export function CardWarning({ children }: { children: ReactNode }) {
  return (
    <p className="card-warning" role="note">
      <span className="card-warning-mark" aria-hidden="true">
        ⚠
      </span>
      {children}
    </p>
  );
}
