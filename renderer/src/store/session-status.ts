/**
 * A session's state mark: the folded state when the window loaded the session (it is the
 * freshest), else the summary the app last pushed.
 */
import type { SessionStatus } from '../../../shared/reducer';
import type { SessionEntry } from './sessions-slice';

export function statusOf(entry: SessionEntry): SessionStatus {
  return entry.state?.status ?? entry.summary.status;
}

export const STATUS_WORDS: Record<SessionStatus, string> = {
  idle: 'idle',
  running: 'running',
  waiting: 'waiting for you',
  error: 'error',
  interrupted: 'interrupted',
};
