/**
 * The frame: the sidebar, the tab bar, the active session, the banners and the dialogs.
 * The store and its sync with the app are made by the caller (main.tsx, or a test).
 */
import { ContextDialog } from './components/context/ContextDialog';
import { ConnectionBanner } from './components/frame/ConnectionBanner';
import { EmptyState } from './components/frame/EmptyState';
import { NoticeBar } from './components/frame/NoticeBar';
import { ReviewDialog } from './components/places/ReviewDialog';
import { ProblemBanner } from './components/frame/ProblemBanner';
import { SessionView } from './components/session/SessionView';
import { TerminalDock } from './components/session/TerminalDock';
import { SettingsDialog } from './components/settings/SettingsDialog';
import { Sidebar } from './components/sidebar/Sidebar';
import { TabBar } from './components/tabs/TabBar';
import { DropZone } from './components/workspace/DropZone';
import { OpenFolderDialog } from './components/workspace/OpenFolderDialog';
import { useActiveSessionReport } from './hooks/useActiveSessionReport';
import { useAttention } from './hooks/useAttention';
import { useShortcuts } from './hooks/useShortcuts';
import { useAppStore } from './store/app-store';

export function App() {
  useShortcuts();
  useAttention();
  useActiveSessionReport();
  const activeId = useAppStore((s) => s.activeId);
  const activeTitle = useAppStore((s) => (s.activeId ? s.sessions[s.activeId]?.summary.title : undefined));
  const dialog = useAppStore((s) => s.dialog);
  const closeDialog = useAppStore((s) => s.closeDialog);

  return (
    <DropZone>
      <div className="app">
        <Sidebar />
        <main className="main">
          {/* The page's one level-one heading, for heading navigation; the empty state shows its own. */}
          {activeId && <h1 className="visually-hidden">{`Session ${activeTitle ?? ''}`.trim()}</h1>}
          <ConnectionBanner />
          <ProblemBanner />
          <NoticeBar />
          <TabBar />
          {activeId ? <SessionView key={activeId} sessionId={activeId} /> : <EmptyState />}
          <TerminalDock />
        </main>
      </div>
      {dialog === 'open-folder' && <OpenFolderDialog />}
      {dialog === 'settings' && <SettingsDialog />}
      {dialog === 'context' && activeId && <ContextDialog key={activeId} sessionId={activeId} />}
      {dialog === 'review' && activeId && <ReviewDialog key={activeId} sessionId={activeId} onClose={closeDialog} />}
    </DropZone>
  );
}
