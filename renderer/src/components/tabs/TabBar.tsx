/**
 * One tab per open session, with its state mark. Arrow keys move between tabs and Delete
 * closes the focused one (the ARIA tabs pattern); closing only closes the view, never the
 * session.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useAppStore } from '../../store/app-store';
import { activePlaceOf } from '../../store/session-place';
import { STATUS_WORDS, statusOf } from '../../store/session-status';
import { modKeyName } from '../frame/mod-key';
import { StateMark } from '../frame/StateMark';
import { tabPlaceWords } from '../places/place-words';

export const SESSION_PANEL_ID = 'session-panel';

export function TabBar() {
  const openIds = useAppStore((s) => s.openIds);
  const activeId = useAppStore((s) => s.activeId);
  const sessions = useAppStore((s) => s.sessions);
  const activateTab = useAppStore((s) => s.activateTab);
  const closeTab = useAppStore((s) => s.closeTab);
  const openDialog = useAppStore((s) => s.openDialog);
  const list = useRef<HTMLDivElement>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  // Set when Delete closed the focused tab: focus follows to the tab shown next (or "+").
  const refocus = useRef(false);

  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    const next = activeId && list.current?.querySelector<HTMLElement>(`[data-tab-id="${CSS.escape(activeId)}"]`);
    (next || newButton.current)?.focus();
  }, [activeId, openIds]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Delete') {
      const id = (event.target as HTMLElement).closest<HTMLElement>('[data-tab-id]')?.dataset.tabId;
      if (!id) return;
      event.preventDefault();
      refocus.current = true;
      closeTab(id);
      return;
    }
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0 || openIds.length === 0) return;
    event.preventDefault();
    const at = activeId ? openIds.indexOf(activeId) : 0;
    const next = openIds[(at + step + openIds.length) % openIds.length];
    if (next === undefined) return;
    activateTab(next);
    list.current?.querySelector<HTMLElement>(`[data-tab-id="${CSS.escape(next)}"]`)?.focus();
  };

  return (
    <div className="tab-bar">
      <div role="tablist" aria-label="Open sessions" ref={list} onKeyDown={onKeyDown} className="tabs">
        {openIds.map((id) => {
          const entry = sessions[id];
          const active = id === activeId;
          const title = entry?.summary.title ?? id;
          const agent = entry?.summary.agent;
          // The agent that drives it, at the version it was opened with (SPEC §14).
          const agentWords = agent ? ` · ${agent.label} ${agent.version}` : '';
          // Its place of its own (SPEC §15), by branch: two tabs on one repository tell apart.
          const place = activePlaceOf(entry);
          const placeWords = place ? ` · ${tabPlaceWords(place)}` : '';
          const named = `${title}${agentWords}${placeWords}`;
          return (
            <div
              key={id}
              className={`tab${active ? ' tab-active' : ''}${agent || place ? ' tab-with-agent' : ''}`}
              role="presentation"
            >
              <button
                type="button"
                role="tab"
                data-tab-id={id}
                aria-selected={active}
                aria-controls={active ? SESSION_PANEL_ID : undefined}
                tabIndex={active ? 0 : -1}
                className="tab-label"
                aria-label={entry ? `${named} (${STATUS_WORDS[statusOf(entry)]})` : named}
                aria-keyshortcuts="Delete"
                title={entry?.summary.workspace}
                onClick={() => activateTab(id)}
                onAuxClick={(e) => e.button === 1 && closeTab(id)}
              >
                {entry && <StateMark status={statusOf(entry)} />}
                <span className="tab-title">{title}</span>
                {agent && (
                  // " · " is shown too: the visible text stays the start of the tab's name (axe).
                  <span className="tab-agent">{agentWords}</span>
                )}
                {place && <span className="tab-agent tab-place">{placeWords}</span>}
              </button>
              {/* For the pointer only. A tablist may hold nothing but tabs (axe: aria-required-children),
                  so this is no button there; keys close the tab with Delete or Ctrl/Cmd+W. */}
              <span
                className="tab-close"
                aria-hidden="true"
                title={`Close ${title} (Delete or ${modKeyName()}+W); the session stays in the sidebar`}
                onClick={() => closeTab(id)}
              >
                ×
              </span>
            </div>
          );
        })}
      </div>
      <button
        ref={newButton}
        type="button"
        className="tab-new"
        aria-label="New session"
        title={`New session (${modKeyName()}+T)`}
        onClick={() => openDialog('open-folder')}
      >
        +
      </button>
    </div>
  );
}
