/**
 * One session's place calls (SPEC §15), over the places room: the place as the log last
 * said it, its review, an apply and a discard. Each change is logged: `place_apply` before
 * the first write, `place_applied` after the last; `place` again when discarded. An apply
 * the process stopped in the middle of is settled when the session recovers. One call at
 * a time per session, and none while a turn runs.
 */
import type { EventPayload, SessionEvent } from '../../../shared/events.js';
import type { PlaceApplyReply, PlaceReview, SessionPlace } from '../../../shared/places.js';
import { SerialQueue } from '../files/serial-queue.js';
import { PlaceError } from './place-error.js';
import type { Places } from './places.js';

export interface SessionPlaceDeps {
  id: string;
  places: Places;
  /** The session's events so far (the live array: it grows as the log does). */
  events: readonly SessionEvent[];
  append: (payload: EventPayload) => Promise<SessionEvent>;
  newId: () => string;
  /** Throws the words for "not while a turn runs". */
  whenIdle: (what: string) => Promise<void>;
}

export interface ApplyRequest {
  reviewId: string;
  as: 'files' | 'commit';
  paths?: string[];
  message?: string;
}

export class SessionPlaceCalls {
  private readonly queue = new SerialQueue();
  private basing: Promise<void> | null = null;

  constructor(private readonly deps: SessionPlaceDeps) {}

  /** The place as the log last said it, or null for a session in the person's folder. */
  current(): SessionPlace | null {
    return placeInLog(this.deps.events) ?? null;
  }

  /**
   * Takes the place's base snapshot if the log has none yet (just made, or the app stopped
   * before it was taken): logged as the place again, with it. Never throws: a failure is
   * logged, and a review then says there is no base.
   */
  ensureBase(): Promise<void> {
    const place = this.current();
    if (!place || place.state !== 'active' || firstBase(this.deps.events)) return Promise.resolve();
    this.basing ??= this.queue
      .run(async () => {
        if (firstBase(this.deps.events)) return;
        try {
          const based = await this.deps.places.snapshotBase(this.deps.id, place);
          await this.deps.append({ type: 'place', place: based });
        } catch (err) {
          await this.deps.append({
            type: 'error',
            message: `the place's base could not be snapshotted, so it cannot be reviewed: ${(err as Error).message}`,
          });
        }
      })
      .catch(() => undefined)
      .finally(() => (this.basing = null));
    return this.basing;
  }

  /** Settles when the base snapshot under way, if any, is taken and logged (the session waits for it on closing). */
  async idle(): Promise<void> {
    await this.basing;
  }

  async review(): Promise<PlaceReview> {
    await this.ensureBase();
    return this.queue.run(async () => {
      const { place, baseSnapshot } = this.require();
      return this.deps.places.review(this.deps.id, place, baseSnapshot);
    });
  }

  apply(request: ApplyRequest): Promise<PlaceApplyReply> {
    return this.queue.run(async () => {
      await this.deps.whenIdle('applying the place');
      return this.applyNow(request);
    });
  }

  /**
   * The model's own proposal, allowed once on its card (propose_apply): the same apply,
   * logged the same way, but from inside the turn that waits on it, so it does not wait for
   * the turn to end. The place is not changed by it: only the person's folder is written.
   */
  applyProposed(request: ApplyRequest): Promise<PlaceApplyReply> {
    return this.queue.run(() => this.applyNow(request));
  }

  private async applyNow(request: ApplyRequest): Promise<PlaceApplyReply> {
    const { place } = this.require();
    const plan = this.deps.places.planApply(this.deps.id, place, request);
    const applyId = this.deps.newId();
    const message = request.message?.trim();
    await this.deps.append({
      type: 'place_apply',
      applyId,
      as: request.as,
      files: plan.files,
      ...(message ? { message } : {}),
    });
    const outcome = await this.deps.places.apply(this.deps.id, place, request, plan);
    await this.deps.append({ type: 'place_applied', applyId, ...outcome });
    return { applyId, ...outcome };
  }

  discard(keepBranch: boolean): Promise<SessionPlace> {
    return this.queue.run(async () => {
      await this.deps.whenIdle('discarding the place');
      const { place } = this.require();
      // Logged first: a stop in the middle is finished at the next start (Sessions), never read as a missing folder.
      await this.deps.append({ type: 'place', place: { ...place, discarding: { keepBranch } } });
      let discarded: SessionPlace;
      try {
        discarded = await this.deps.places.discard(place, keepBranch);
      } catch (err) {
        await this.deps.append({ type: 'place', place });
        throw err;
      }
      await this.deps.append({ type: 'place', place: discarded });
      return discarded;
    });
  }

  /** An apply with no `place_applied` (the process stopped in it) is settled from what is on disk. */
  async recover(): Promise<void> {
    await this.ensureBase();
    return this.queue.run(async () => {
      const started = this.deps.events.findLast((e) => e.type === 'place_apply');
      if (started?.type !== 'place_apply') return;
      const ended = this.deps.events.some((e) => e.type === 'place_applied' && e.applyId === started.applyId);
      const place = this.current();
      if (ended || !place) return;
      const outcome = await this.deps.places.settleInterrupted(place, started.files);
      await this.deps.append({ type: 'place_applied', applyId: started.applyId, interrupted: true, ...outcome });
    });
  }

  private require(): { place: SessionPlace; baseSnapshot: string } {
    const place = placeInLog(this.deps.events);
    if (!place) throw new PlaceError('this session works in your folder: it has no place of its own');
    if (place.state !== 'active') throw new PlaceError("this session's place was discarded");
    const baseSnapshot = firstBase(this.deps.events);
    if (!baseSnapshot) throw new PlaceError("this session's place has no base snapshot to review against");
    return { place, baseSnapshot };
  }
}

/** The session's place as its log last said it (every reader of a session's place asks here). */
export function placeInLog(events: readonly SessionEvent[]): SessionPlace | undefined {
  const found = events.findLast((e) => e.type === 'place');
  return found?.type === 'place' ? found.place : undefined;
}

function firstBase(events: readonly SessionEvent[]): string | undefined {
  for (const e of events) if (e.type === 'place' && e.place.baseSnapshot) return e.place.baseSnapshot;
  return undefined;
}
