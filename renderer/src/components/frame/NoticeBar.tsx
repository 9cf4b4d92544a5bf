/** One message at a time (a refused drop, a failed load), until dismissed. */
import { useAppStore } from '../../store/app-store';

export function NoticeBar() {
  const notice = useAppStore((s) => s.notice);
  const dismiss = useAppStore((s) => s.dismissNotice);
  if (!notice) return null;
  return (
    <div className={`banner banner-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      <span>{notice.text}</span>
      <button type="button" aria-label="Dismiss message" onClick={dismiss}>
        ×
      </button>
    </div>
  );
}
