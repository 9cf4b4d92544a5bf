/**
 * One session's shell as the panel sees it: opened through terminal.open, fed by the
 * terminal.output pushes for its id, written to and resized through the contract, closed
 * through terminal.close. Kept apart from xterm and React so the wiring is testable alone.
 */
import type { Push } from '../../../../shared/contract';
import type { RendererApi } from '../../api/types';
import { inputChunks } from './input-chunks';

/** What the connection needs of the screen (an xterm Terminal has all of it). */
export interface TerminalScreen {
  write(data: string): void;
}

export type TerminalState =
  | { kind: 'starting' }
  | { kind: 'running'; terminalId: string }
  | { kind: 'exited'; exitCode: number; signal: number | null }
  | { kind: 'failed'; error: string };

/** Output that arrives before terminal.open has answered (Electron's pushes and replies travel apart). */
const EARLY_OUTPUT_MAX_CHARS = 256 * 1024;

export class TerminalConnection {
  private terminalId: string | null = null;
  private early: Extract<Push, { name: 'terminal.output' }>['payload'][] = [];
  private earlyChars = 0;
  private closed = false;
  private starting = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly api: RendererApi,
    private readonly screen: TerminalScreen,
    private readonly onState: (state: TerminalState) => void,
  ) {
    this.unsubscribe = api.subscribe((push) => this.onPush(push));
  }

  async start(sessionId: string, size: { cols: number; rows: number }): Promise<void> {
    this.onState({ kind: 'starting' });
    this.starting = true;
    const reply = await this.api['terminal.open']({ id: sessionId });
    this.starting = false;
    if (!reply.ok) {
      this.early = [];
      this.onState({ kind: 'failed', error: `could not start: ${reply.error}` });
      return;
    }
    const { terminalId } = reply.data;
    if (this.closed) {
      // The panel went away while the shell was starting: it must not outlive the tab.
      void this.api['terminal.close']({ terminalId });
      return;
    }
    this.terminalId = terminalId;
    this.onState({ kind: 'running', terminalId });
    for (const out of this.early) if (out.terminalId === terminalId) this.screen.write(out.data);
    this.early = [];
    this.resize(size.cols, size.rows);
  }

  input(data: string): void {
    const terminalId = this.terminalId;
    if (!terminalId) return;
    for (const piece of inputChunks(data)) {
      void this.api['terminal.write']({ terminalId, data: piece }).then((reply) => {
        if (!reply.ok) this.lost(terminalId, reply.error);
      });
    }
  }

  /** The app no longer knows the shell (the web host restarted, say): say so rather than type into nothing. */
  private lost(terminalId: string, error: string): void {
    if (this.terminalId !== terminalId) return;
    this.terminalId = null;
    this.onState({ kind: 'failed', error: `the shell is gone (${error})` });
  }

  resize(cols: number, rows: number): void {
    const terminalId = this.terminalId;
    if (!terminalId || cols < 1 || rows < 1) return;
    void this.api['terminal.resize']({ terminalId, cols, rows });
  }

  /** Kills the shell (closing the tab); safe to call twice or before the shell started. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    if (this.terminalId) void this.api['terminal.close']({ terminalId: this.terminalId });
    this.terminalId = null;
  }

  private onPush(push: Push): void {
    if (push.name === 'terminal.output') {
      if (this.starting) this.keepEarly(push.payload);
      else if (push.payload.terminalId === this.terminalId) this.screen.write(push.payload.data);
    } else if (push.name === 'terminal.exit' && push.payload.terminalId === this.terminalId) {
      this.terminalId = null;
      this.onState({ kind: 'exited', exitCode: push.payload.exitCode, signal: push.payload.signal });
    }
  }

  private keepEarly(payload: Extract<Push, { name: 'terminal.output' }>['payload']): void {
    if (this.earlyChars + payload.data.length > EARLY_OUTPUT_MAX_CHARS) return;
    this.early.push(payload);
    this.earlyChars += payload.data.length;
  }
}
