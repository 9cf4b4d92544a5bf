/**
 * When no model can run yet, the app says why in plain words; sessions can still be browsed.
 * A session driven by an external agent needs no model of Gatehouse's: while one is shown,
 * a missing model is not its problem, and the banner would only say something beside the
 * point above its cards.
 */
import { useAppStore } from '../../store/app-store';

export function ProblemBanner() {
  const problem = useAppStore((s) => s.settings?.problem ?? null);
  const noModel = useAppStore((s) => s.settings !== null && !s.settings.model);
  const agentShown = useAppStore((s) => (s.activeId ? s.sessions[s.activeId]?.summary.agent !== undefined : false));
  const openDialog = useAppStore((s) => s.openDialog);
  if (!problem || (noModel && agentShown)) return null;
  return (
    <div className="banner banner-problem" role="status">
      <span>{problem}</span>
      <button type="button" onClick={() => openDialog('settings')}>
        Open Settings
      </button>
    </div>
  );
}
