/**
 * What needs the user, decided once in the core; how to show it (tray, OS notification,
 * app badge) is the shell's business, behind `AttentionSink`. The core never imports
 * electron, so the Electron shell implements the sink and the web host passes none.
 *
 * Attention watches the host's pushes: summaries say which sessions are waiting, and a
 * `card` or `question` event is the moment to tell the user, unless they are already
 * looking at that session (the renderer reports it through `app.activeSession`).
 */
import type { Push, SessionSummary } from '../../../shared/contract.js';
import type { SessionEvent } from '../../../shared/events.js';
import { describeRaised } from './raised-text.js';

export interface WaitingSession {
  id: string;
  title: string;
  /** Open cards plus an open question. */
  waiting: number;
}

export interface AttentionSink {
  /** The sessions waiting for the user, oldest update first; called only when it changed. */
  waitingChanged(list: WaitingSession[]): void;
  /** A card or question went up where the user is not looking. */
  cardRaised(sessionId: string, title: string, body: string): void;
}

export interface ActiveView {
  id: string | null;
  /** The window is shown and focused (or the browser page visible). */
  visible: boolean;
}

export class Attention {
  private readonly summaries = new Map<string, SessionSummary>();
  private active: ActiveView = { id: null, visible: false };
  /** The shell's own view of its window's focus, which arrives before the renderer's report. */
  private shellFocused: boolean | null = null;
  private notifications = true;
  private lastWaiting = '';

  constructor(private readonly sink: AttentionSink) {}

  /** The sessions known at start-up, so the tray is right before anything changes. */
  seed(summaries: readonly SessionSummary[]): void {
    for (const summary of summaries) this.summaries.set(summary.id, summary);
    this.publishWaiting();
  }

  setActive(view: ActiveView): void {
    this.active = { ...view };
  }

  /** The window gained (true) or lost (false) focus; null where the shell cannot tell. */
  setShellFocused(focused: boolean | null): void {
    this.shellFocused = focused;
  }

  setNotifications(on: boolean): void {
    this.notifications = on;
  }

  /** Feed every host push through here (host.subscribe). */
  onPush(push: Push): void {
    if (push.name === 'sessions.changed') {
      this.summaries.set(push.payload.summary.id, push.payload.summary);
      this.publishWaiting();
    } else if (push.name === 'session.event') {
      this.onEvent(push.payload.id, push.payload.event);
    }
  }

  /** The user is looking at this session right now. */
  isLooking(sessionId: string): boolean {
    return this.active.visible && this.shellFocused !== false && this.active.id === sessionId;
  }

  private onEvent(sessionId: string, event: SessionEvent): void {
    if (!this.notifications || this.isLooking(sessionId)) return;
    const raised = describeRaised(event);
    if (!raised) return;
    const title = this.summaries.get(sessionId)?.title ?? 'Gatehouse';
    this.sink.cardRaised(sessionId, `${title}: ${raised.title}`, raised.body);
  }

  private publishWaiting(): void {
    const list = [...this.summaries.values()]
      .filter((s) => s.waiting > 0)
      .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt))
      .map((s) => ({ id: s.id, title: s.title, waiting: s.waiting }));
    const key = JSON.stringify(list);
    if (key === this.lastWaiting) return;
    this.lastWaiting = key;
    this.sink.waitingChanged(list);
  }
}
