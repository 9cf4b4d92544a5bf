/**
 * One terminal panel per open tab, kept mounted while the tab is open so its shell and
 * scrollback survive tab switches; only the active tab's panel shows, and only when toggled
 * on (Ctrl+`). Closing a tab unmounts its panel, which ends its shell.
 *
 * A panel mounts only once its tab's terminal was first shown, and xterm.js is loaded then:
 * it is a third of the renderer's JS, and most sessions never open a terminal.
 */
import { lazy, Suspense, useState } from 'react';
import { useAppStore } from '../../store/app-store';

const TerminalPanel = lazy(async () => ({ default: (await import('../terminal/TerminalPanel')).TerminalPanel }));

export function TerminalDock() {
  const openIds = useAppStore((s) => s.openIds);
  const activeId = useAppStore((s) => s.activeId);
  const terminalOpen = useAppStore((s) => s.terminalOpen);
  const [everShown, setEverShown] = useState<ReadonlySet<string>>(new Set());
  const shown = activeId !== null && terminalOpen[activeId] === true;
  // Deriving during render (not in an effect) mounts the panel in the same commit it is asked for.
  if (shown && !everShown.has(activeId)) setEverShown(new Set(everShown).add(activeId));
  const mounted = openIds.filter((id) => everShown.has(id) || (shown && id === activeId));
  return (
    <div className="terminal-dock" hidden={!shown}>
      <Suspense fallback={shown ? <p className="terminal-loading">Starting the terminal…</p> : null}>
        {mounted.map((id) => (
          <TerminalPanel key={id} sessionId={id} open={id === activeId && terminalOpen[id] === true} />
        ))}
      </Suspense>
    </div>
  );
}
