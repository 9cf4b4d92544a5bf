/**
 * One quiet line that says what something can reach, turning amber with a ⚠ when it
 * deserves a look (UI.md card rule 7): a command's record in the transcript, a workspace's
 * MCP server running unconfined in Settings. The words say it; the colour and the mark
 * only repeat them.
 */
import type { ReactNode } from 'react';

interface WarningLineProps {
  /** The line's own class; a loud line also gets `<className>-warning`. */
  className: string;
  loud: boolean;
  children: ReactNode;
}

export function WarningLine({ className, loud, children }: WarningLineProps) {
  return (
    <p className={loud ? `${className} ${className}-warning` : className}>
      {loud && (
        <span className="warning-mark" aria-hidden="true">
          ⚠{' '}
        </span>
      )}
      {children}
    </p>
  );
}
