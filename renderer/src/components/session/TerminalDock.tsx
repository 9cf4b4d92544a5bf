/**
 * One terminal panel per open tab, kept mounted while the tab is open so its shell and
 * scrollback survive tab switches; only the active tab's panel shows, and only when toggled
 * on (Ctrl+`). Closing a tab unmounts its panel, which ends its shell.
 */
import { useAppStore } from '../../store/app-store';
import { TerminalPanel } from '../terminal/TerminalPanel';

export function TerminalDock() {
  const openIds = useAppStore((s) => s.openIds);
  const activeId = useAppStore((s) => s.activeId);
  const terminalOpen = useAppStore((s) => s.terminalOpen);
  const shown = activeId !== null && terminalOpen[activeId] === true;
  return (
    <div className="terminal-dock" hidden={!shown}>
      {openIds.map((id) => (
        <TerminalPanel key={id} sessionId={id} open={id === activeId && terminalOpen[id] === true} />
      ))}
    </div>
  );
}
