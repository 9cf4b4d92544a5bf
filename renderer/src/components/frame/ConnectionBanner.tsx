/** Says so while the web host's socket is down; the store catches up when it is back. */
import { useAppStore } from '../../store/app-store';

export function ConnectionBanner() {
  const connection = useAppStore((s) => s.connection);
  if (connection === 'connected') return null;
  return (
    <p className="banner banner-connection" role="status">
      {connection === 'reconnecting'
        ? 'Connection to Gatehouse lost. Reconnecting…'
        : 'Gatehouse is not reachable. Is the app still running? Retrying…'}
    </p>
  );
}
