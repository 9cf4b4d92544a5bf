/**
 * A session's context as the contract's calls reach it (`session.context`,
 * `session.compact`): what the model sees, and Compact now. A Compact run outside a turn
 * is held here, so cancel can stop it and undo can wait for it.
 */
import type { ModelConfig } from '../../../shared/contract.js';
import type { ContextPreview } from '../../../shared/context-preview.js';
import type { ChatClient } from '../chat/chat-client.js';
import type { SessionContext } from '../context/session-context.js';
import { SessionError } from './session-error.js';

export interface SessionContextCallsDeps {
  context: SessionContext;
  /** The session's model now, or a SessionError saying how to configure one. */
  chat: () => { chat: ChatClient; model: ModelConfig };
  /** The running turn, if any: a summary asked during it takes its place between two steps. */
  liveTurn: () => { turnId: string; signal: AbortSignal } | null;
}

export class SessionContextCalls {
  /** A Compact now running; cancel stops it. */
  private compacting: AbortController | null = null;

  constructor(private readonly deps: SessionContextCallsDeps) {}

  /** Whether a Compact now is running (undo waits for it to end). */
  get summarising(): boolean {
    return this.compacting !== null;
  }

  /** What the model sees: the exact context of the next step, with token counts. */
  async preview(): Promise<ContextPreview> {
    return this.deps.context.preview(this.deps.chat().model, { turnLive: this.deps.liveTurn() !== null });
  }

  /**
   * Compact now: the older history becomes a summary, keeping what the instructions ask.
   * During a turn it takes its place between two steps; otherwise it runs at once, and
   * cancel stops it.
   */
  async compact(instructions?: string): Promise<{ tokensBefore: number; tokensAfter: number }> {
    if (this.compacting) throw new SessionError('a summary is already being written for this session');
    const { chat, model } = this.deps.chat();
    const controller = new AbortController();
    const live = this.deps.liveTurn();
    const signal = live ? AbortSignal.any([controller.signal, live.signal]) : controller.signal;
    this.compacting = controller;
    try {
      return await this.deps.context.compactNow({ turnId: live?.turnId, chat, model, signal }, instructions);
    } catch (err) {
      if (signal.aborted) throw new SessionError('the summary was cancelled; nothing changed');
      throw err;
    } finally {
      this.compacting = null;
    }
  }

  /** Stops a Compact now; whether one was running. */
  cancel(): boolean {
    const compacting = this.compacting;
    compacting?.abort();
    return compacting !== null;
  }
}
