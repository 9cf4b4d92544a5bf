/** The small mark that says a session's state, in the sidebar and on its tab. */
import type { SessionStatus } from '../../../../shared/reducer';
import { STATUS_WORDS } from '../../store/session-status';

export function StateMark({ status }: { status: SessionStatus }) {
  return <span className={`state-mark state-${status}`} role="img" aria-label={STATUS_WORDS[status]} />;
}
