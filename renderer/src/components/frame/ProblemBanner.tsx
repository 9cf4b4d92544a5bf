/** When no model can run yet, the app says why in plain words; sessions can still be browsed. */
import { useAppStore } from '../../store/app-store';

export function ProblemBanner() {
  const problem = useAppStore((s) => s.settings?.problem ?? null);
  const openDialog = useAppStore((s) => s.openDialog);
  if (!problem) return null;
  return (
    <div className="banner banner-problem" role="status">
      <span>{problem}</span>
      <button type="button" onClick={() => openDialog('settings')}>
        Open Settings
      </button>
    </div>
  );
}
