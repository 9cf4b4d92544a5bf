/**
 * A session's checkpoints as the contract's calls reach them (`session.changes`, `.undo`,
 * `.redo`, `.rewind`; SPEC §12). Reading changes is always allowed; taking files back
 * waits for, or refuses, whatever may be using them.
 */
import type { RewindRestore } from '../../../shared/events.js';
import type { ChangesView, RestoreOutcome } from '../../../shared/checkpoints.js';
import type { SessionCheckpoints } from '../checkpoints/session-checkpoints.js';
import { asSessionError } from './session-error.js';

export class SessionUndo {
  constructor(
    private readonly store: SessionCheckpoints,
    /** Resolves when files may be taken back; throws (a SessionError) while a turn or summary may use them. */
    private readonly whenIdle: (what: string) => Promise<void>,
  ) {}

  /** The files a turn or a call changed, as diffs. */
  async changes(query: { turnId?: string; toolCallId?: string }): Promise<ChangesView> {
    return this.store.changes(query).catch(asSessionError);
  }

  async undo(turnId: string, paths?: string[], overwrite?: string[]): Promise<RestoreOutcome> {
    await this.whenIdle('undo');
    return this.store.undo(turnId, paths, overwrite).catch(asSessionError);
  }

  async redo(overwrite?: string[]): Promise<RestoreOutcome> {
    await this.whenIdle('redo');
    return this.store.redo(overwrite).catch(asSessionError);
  }

  async rewind(seq: number, restore: RewindRestore, overwrite?: string[]): Promise<RestoreOutcome> {
    await this.whenIdle('rewind');
    return this.store.rewind(seq, restore, overwrite).catch(asSessionError);
  }
}
