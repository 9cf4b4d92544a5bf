/**
 * The whole frame with one session in a place of its own whose model proposes applying its
 * change (propose_apply, SPEC §15), over a fake host, for test/e2e/propose-apply.e2e.ts: the
 * `place_apply` card pinned, as a commit (`?as=commit`, four files, one in conflict) or as
 * files (`?as=files`). Answering it pushes the answer. Not a unit test.
 */
import { createRoot } from 'react-dom/client';
import { describeGrant, type CardBody, type PlaceApplyCardBody } from '../../../../shared/cards';
import type { EventPayload } from '../../../../shared/events';
import type { SessionPlace } from '../../../../shared/places';
import { App } from '../../../../renderer/src/App';
import { ApiProvider } from '../../../../renderer/src/api/api-context';
import { createAppStore, StoreProvider } from '../../../../renderer/src/store/app-store';
import '../../../../renderer/src/styles/theme.css';
import '../../../../renderer/src/styles/boxes.css';
import '../../../../renderer/src/styles/app.css';
import { grantOfBody, placeApplyBody, WORKSPACE } from '../components/cards/card-fixtures';
import { SETTINGS_NONE, createFakeApi, eventsFrom, summaryOf } from '../fake-api';

const params = new URLSearchParams(location.search);
const asCommit = params.get('as') !== 'files';

const PLACE: SessionPlace = {
  kind: 'worktree',
  origin: WORKSPACE,
  path: '/home/me/.config/Gatehouse/places/s1/project',
  branch: 'gatehouse/exponents',
  baseCommit: '4f1c2ab9e0d3c6b7a8f9e0d1c2b3a4f5e6d7c8b9',
  baseSnapshot: 'b1',
  state: 'active',
};

const commitBody = placeApplyBody({ place: PLACE.path }) as PlaceApplyCardBody;
const { commit: _commit, message: _message, ...filesOnly } = commitBody;
const body: CardBody = asCommit
  ? commitBody
  : { ...filesOnly, as: 'files', files: commitBody.files.filter((f) => f.path !== 'README.md') };
const input = asCommit
  ? { as: 'commit', paths: commitBody.files.map((f) => f.path), message: commitBody.message }
  : { as: 'files' };

const grant = grantOfBody(body);
const events: EventPayload[] = [
  { type: 'place', place: PLACE },
  { type: 'user_message', messageId: 'm1', text: 'Make the parser take exponents, then apply it to my folder.' },
  { type: 'turn_started', turnId: 't1', messageId: 'm1' },
  {
    type: 'assistant_text',
    turnId: 't1',
    text: 'The parser now reads 1e3 and 2.5E-2, and the tests pass in the place. I propose applying it.',
  },
  { type: 'tool_call', turnId: 't1', toolCallId: 'c1', tool: 'propose_apply', args: input },
  { type: 'card', turnId: 't1', toolCallId: 'c1', cardId: 'k1', body, grant, scope: describeGrant(grant) },
];

const fake = createFakeApi();
const store = createAppStore(window.localStorage);
const summary = summaryOf({
  id: 's1',
  title: 'exponents',
  workspace: PLACE.path,
  status: 'waiting',
  waiting: 1,
  place: PLACE,
});
store.getState().setSettings({ ...SETTINGS_NONE, home: '/home/me' });
store.getState().setSummaries([summary]);
store.getState().sessionLoaded(summary, eventsFrom(1, events));
store.getState().openTab('s1');

document.body.style.margin = '0';
createRoot(document.getElementById('root') as HTMLElement).render(
  <ApiProvider api={fake.api}>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </ApiProvider>,
);
