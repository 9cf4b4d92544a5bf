/**
 * Questions the agent asks with `ask`. A question is a record in the log; waiting for
 * its answer is a promise held here by question id, made again after a restart.
 */
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import { CancelledError, GateError } from '../gate/gate-error.js';

export class Questions {
  private readonly waiting = new Map<string, (text: string) => void>();
  /** Questions from the log a resume will wait on; an answer arriving first is kept here. */
  private readonly expected = new Map<string, string | null>();

  constructor(private readonly append: (payload: EventPayload) => Promise<SessionEvent>) {}

  expect(questionId: string): void {
    if (!this.waiting.has(questionId)) this.expected.set(questionId, null);
  }

  /** Resolves with the answer's text; rejects with CancelledError (and logs the withdrawal) on abort. */
  wait(questionId: string, signal?: AbortSignal): Promise<string> {
    const early = this.expected.get(questionId);
    this.expected.delete(questionId);
    if (typeof early === 'string') return Promise.resolve(early);
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(questionId);
        this.append({ type: 'question_withdrawn', questionId, reason: 'the turn was cancelled' }).then(
          () => reject(new CancelledError()),
          reject,
        );
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(questionId, (text) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(text);
      });
    });
  }

  /** Forgets every question still waiting once their turn is over, so a late answer is refused. */
  forgetAll(): void {
    this.waiting.clear();
    this.expected.clear();
  }

  async answer(questionId: string, text: string): Promise<void> {
    const resolve = this.waiting.get(questionId);
    if (!resolve && this.expected.get(questionId) === null) {
      await this.append({ type: 'question_answer', questionId, text });
      this.expected.set(questionId, text);
      return;
    }
    if (!resolve) throw new GateError(`no open question with id ${questionId}`);
    this.waiting.delete(questionId);
    await this.append({ type: 'question_answer', questionId, text });
    resolve(text);
  }
}
