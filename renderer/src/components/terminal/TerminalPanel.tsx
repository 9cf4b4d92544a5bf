/**
 * The session's terminal panel (UI.md: toggled with Ctrl+`): the user's own shell in the
 * workspace, through terminal.* calls and pushes. It is not the agent's and no gate applies,
 * which the header says in words.
 *
 * Mount one per open session tab and keep it mounted while the tab is open (pass
 * `open={false}` to hide it): the shell starts the first time the panel is shown, keeps
 * its scrollback while hidden, and is killed when the panel unmounts (the tab closed).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useApi } from '../../api/api-context';
import { TerminalConnection, type TerminalState } from './terminal-connection';
import { onSchemeChange, terminalFont, terminalTheme } from './terminal-theme';
import './terminal.css';

export interface TerminalPanelProps {
  sessionId: string;
  open: boolean;
}

interface Live {
  term: Terminal;
  fit: FitAddon;
  connection: TerminalConnection;
  dispose(): void;
}

export function TerminalPanel({ sessionId, open }: TerminalPanelProps) {
  const api = useApi();
  const host = useRef<HTMLDivElement>(null);
  const live = useRef<Live | null>(null);
  const pendingClose = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [state, setState] = useState<TerminalState | null>(null);

  const start = useCallback(() => {
    const element = host.current;
    if (!element) return;
    live.current?.dispose();
    element.replaceChildren();
    live.current = mountTerminal(element, api, sessionId, setState);
  }, [api, sessionId]);

  // The shell starts the first time the panel is shown; hiding it keeps it running.
  useEffect(() => {
    if (!open) return;
    if (!live.current) start();
    const current = live.current;
    if (!current) return;
    fitNow(current);
    current.term.focus();
  }, [open, start]);

  // Closing the tab unmounts the panel and kills the shell. The close waits a tick so a
  // StrictMode re-mount (same panel, effects run twice) keeps the shell it already has.
  useEffect(() => {
    if (pendingClose.current) clearTimeout(pendingClose.current);
    pendingClose.current = null;
    return () => {
      pendingClose.current = setTimeout(() => {
        live.current?.dispose();
        live.current = null;
      }, 0);
    };
  }, []);

  // Follow the panel's size: fit the grid to it, and the pty to the grid.
  useEffect(() => {
    const element = host.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (live.current) fitNow(live.current);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <section className="terminal-panel" aria-label="Terminal" hidden={!open}>
      <header className="terminal-header">
        <span className="terminal-title">Terminal</span>
        <span className="terminal-note">your shell — not gated</span>
        <TerminalStatus state={state} onRestart={start} />
      </header>
      <div className="terminal-screen" ref={host} />
    </section>
  );
}

function TerminalStatus({ state, onRestart }: { state: TerminalState | null; onRestart: () => void }) {
  if (!state || state.kind === 'running') return null;
  if (state.kind === 'starting') return <span className="terminal-status">starting…</span>;
  const text =
    state.kind === 'failed'
      ? state.error
      : `shell exited${state.signal ? ` (signal ${state.signal})` : ` with code ${state.exitCode}`}`;
  return (
    <>
      <span className={`terminal-status terminal-status-${state.kind}`} role="status">
        {text}
      </span>
      <button type="button" className="terminal-restart" onClick={onRestart}>
        Start a new shell
      </button>
    </>
  );
}

function mountTerminal(
  element: HTMLElement,
  api: ReturnType<typeof useApi>,
  sessionId: string,
  setState: (state: TerminalState) => void,
): Live {
  const term = new Terminal({
    theme: terminalTheme(),
    fontFamily: terminalFont(),
    fontSize: 13,
    cursorBlink: true,
    scrollback: 5000,
  });
  const fit = new FitAddon();
  term.loadAddon(fit);
  term.open(element);
  // The frame's shortcuts run first (capture phase) and mark the keys they used: those
  // must not also reach the shell (Ctrl+` would type a NUL, Ctrl+3 an Escape).
  term.attachCustomKeyEventHandler((event) => !event.defaultPrevented);
  const connection = new TerminalConnection(api, term, setState);
  const typing = term.onData((data) => connection.input(data));
  const resizing = term.onResize(({ cols, rows }) => connection.resize(cols, rows));
  const stopScheme = onSchemeChange(() => {
    term.options.theme = terminalTheme();
  });
  const current: Live = {
    term,
    fit,
    connection,
    dispose() {
      connection.close();
      typing.dispose();
      resizing.dispose();
      stopScheme();
      term.dispose();
    },
  };
  fitNow(current);
  void connection.start(sessionId, { cols: term.cols, rows: term.rows });
  return current;
}

/** A hidden panel has no size; fitting it would shrink the shell to nothing. */
function fitNow({ fit, term }: Live): void {
  const element = term.element?.parentElement;
  if (!element || element.clientWidth === 0 || element.clientHeight === 0) return;
  try {
    fit.fit();
  } catch {
    // The renderer is not measured yet (first frame); the ResizeObserver fits it next time.
  }
}
