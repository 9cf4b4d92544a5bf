/**
 * The whole frame over a fake host that keeps sessions in places of their own (SPEC §15),
 * for the places' end-to-end test in Chromium (test/e2e/places.e2e.ts): the Open dialog
 * makes a session in a worktree; its review lists a session's files (`?conflict=1` adds one
 * the person changed too); Apply pushes the apply's events and the next review finds the
 * files in the folder; Discard pushes the discarded place; Settings lists the places, one of
 * them an orphan. The store is kept in step as main.tsx keeps it. Not a unit test.
 */
import { createRoot } from 'react-dom/client';
import type { SessionSummary } from '../../../../shared/contract';
import type { EventPayload, SessionEvent } from '../../../../shared/events';
import type { PlaceFileChange, PlaceListing, PlaceReview, SessionPlace } from '../../../../shared/places';
import { App } from '../../../../renderer/src/App';
import { ApiProvider } from '../../../../renderer/src/api/api-context';
import { createAppStore, StoreProvider } from '../../../../renderer/src/store/app-store';
import { connectStore } from '../../../../renderer/src/store/sync';
import '../../../../renderer/src/styles/theme.css';
import '../../../../renderer/src/styles/boxes.css';
import '../../../../renderer/src/styles/app.css';
import { ADDED, APPLIED, COMMIT_ARGV, CONFLICT, LISTED, READY, reviewOf } from '../components/places/place-fixtures';
import { SETTINGS_NONE, createFakeApi, summaryOf } from '../fake-api';

const params = new URLSearchParams(location.search);
const DATA = '/home/me/.local/share/gatehouse/places';

const fake = createFakeApi();
const sessions: SessionSummary[] = [];
const logs = new Map<string, SessionEvent[]>();
/** Per session, the files as the next review finds them. */
const files = new Map<string, PlaceFileChange[]>();
let reviews = 0;

function append(id: string, payload: EventPayload): void {
  const log = logs.get(id)!;
  const event = { ...payload, seq: log.length + 1, ts: new Date().toISOString() } as SessionEvent;
  log.push(event);
  fake.push({ name: 'session.event', payload: { id, event } });
}

function setPlace(id: string, place: SessionPlace): void {
  const at = sessions.findIndex((s) => s.id === id);
  sessions[at] = { ...sessions[at]!, place };
  append(id, { type: 'place', place });
  fake.push({ name: 'sessions.changed', payload: { summary: sessions[at]! } });
}

const placeOf = (id: string) => sessions.find((s) => s.id === id)!.place!;

fake.respond('sessions.list', () => ({ ok: true, data: sessions }));
fake.respond('sessions.open', ({ workspace, place }) => {
  const id = `s${sessions.length + 1}`;
  const name = workspace.replace(/\/+$/, '').split('/').at(-1) ?? 'folder';
  const title = `fix ${name}`;
  const made: SessionPlace | undefined = place
    ? {
        kind: 'worktree',
        origin: workspace,
        path: `${DATA}/${id}/${name}`,
        branch: `gatehouse/fix-${name}`,
        baseCommit: '4f1c2ab9e0d3c6b7a8f9e0d1c2b3a4f5e6d7c8b9',
        state: 'active',
      }
    : undefined;
  const summary = summaryOf({ id, title, workspace: made?.path ?? workspace, ...(made ? { place: made } : {}) });
  sessions.push(summary);
  logs.set(id, []);
  if (made) append(id, { type: 'place', place: made });
  files.set(id, params.get('conflict') === '1' ? [READY, ADDED, CONFLICT, APPLIED] : [READY, ADDED, APPLIED]);
  return { ok: true, data: summary };
});
fake.respond('session.state', ({ id }) => ({
  ok: true,
  data: { summary: sessions.find((s) => s.id === id)!, events: logs.get(id) ?? [] },
}));
fake.respond('session.events', ({ id, sinceSeq }) => ({
  ok: true,
  data: { events: (logs.get(id) ?? []).filter((e) => e.seq > sinceSeq) },
}));
fake.respond('session.review', ({ id }): { ok: true; data: PlaceReview } | { ok: false; error: string } => {
  const place = placeOf(id);
  if (place.state !== 'active') return { ok: false, error: 'this session’s place was discarded' };
  reviews += 1;
  return {
    ok: true,
    data: reviewOf({
      place,
      reviewId: `r${reviews}`,
      files: files.get(id)!,
      commit: { branch: 'main', argv: COMMIT_ARGV },
      discard: {
        removes: [place.path, `the branch ${place.branch}`],
        argv: [
          ['git', 'worktree', 'remove', '--force', place.path],
          ['git', 'branch', '-D', place.branch!],
        ],
      },
    }),
  };
});
fake.respond('session.apply', async ({ id, as, paths = [], message }) => {
  const applyId = `a${reviews}`;
  const now = files.get(id)!;
  const asked = now.filter((f) => paths.includes(f.path));
  append(id, {
    type: 'place_apply',
    applyId,
    as,
    files: asked.map((f) => ({ path: f.path, change: f.change, from: f.originDigest, to: 'f'.repeat(64) })),
    ...(message ? { message } : {}),
  });
  // Long enough for the progress line to be seen.
  await new Promise((resolve) => setTimeout(resolve, 400));
  files.set(
    id,
    now.map((f) => (paths.includes(f.path) ? { ...f, status: 'applied' as const } : f)),
  );
  const outcome = {
    applied: asked.map((f) => f.path),
    conflicts: [],
    failed: [],
    ...(as === 'commit' ? { commit: '9d2e7c41b0a5f6e3d8c7b2a1f0e9d8c7b6a5f4e3' } : {}),
  };
  append(id, { type: 'place_applied', applyId, ...outcome });
  return { ok: true, data: { applyId, ...outcome } };
});
fake.respond('session.discardPlace', ({ id }) => {
  const place: SessionPlace = { ...placeOf(id), state: 'discarded' };
  setPlace(id, place);
  return { ok: true, data: { place } };
});
let listed: PlaceListing[] = LISTED;
fake.respond('places.list', () => ({ ok: true, data: { places: listed } }));
fake.respond('places.remove', ({ path }) => {
  listed = listed.filter((p) => p.path !== path);
  return { ok: true, data: { removed: true } };
});
fake.reply('settings.get', { ...SETTINGS_NONE, home: '/home/me' });

const store = createAppStore(window.localStorage);
window.localStorage.clear();
const sync = connectStore(store, fake.api);
void sync.start();

document.body.style.margin = '0';
createRoot(document.getElementById('root') as HTMLElement).render(
  <ApiProvider api={fake.api}>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </ApiProvider>,
);
