/** An external agent's start card (SPEC §14; UI.md card rules 1, 2 and 7). */
// The stylesheet is read from disk (Vite hands a test CSS as an empty module).
// eslint-disable-next-line no-restricted-imports
import { readFileSync } from 'node:fs';
// eslint-disable-next-line no-restricted-imports
import { join } from 'node:path';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AgentStartCardBody } from '../../../../../shared/cards';
import type { CardEvent, CardOutcome } from '../../../../../shared/reducer';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { AGENT_HOLDS } from '../../../../../renderer/src/components/cards/agent-words';
import { PermissionCard } from '../../../../../renderer/src/components/cards/PermissionCard';
import { createFakeApi } from '../../fake-api';
import { SESSION, WORKSPACE, agentStartBody, cardOf } from './card-fixtures';

const LABEL = 'Permission: start Claude Code';

function body(overrides: Partial<AgentStartCardBody> = {}): AgentStartCardBody {
  return agentStartBody(overrides) as AgentStartCardBody;
}

function renderCard(card: CardEvent, outcome: CardOutcome = { state: 'open' }, pinned = true) {
  return render(
    <ApiProvider api={createFakeApi().api}>
      <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={card} outcome={outcome} pinned={pinned} />
    </ApiProvider>,
  );
}

const openCard = () => screen.getByRole('region', { name: LABEL });

describe("an external agent's start card", () => {
  it('names the agent and its pinned version', () => {
    renderCard(cardOf(body()));
    expect(openCard().querySelector('.card-subject')).toHaveTextContent('Start Claude Code version 0.10.0');
  });

  it('shows the exact argv as separate tokens, with invisible characters marked', () => {
    renderCard(cardOf(body({ argv: ['/usr/bin/node', 'entry.js ', '--flag\u202e'] })));
    const tokens = within(openCard()).getByRole('list', { name: 'Command and arguments' });
    const items = within(tokens).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[1]!.querySelector('.visible-mark')).not.toBeNull();
    expect(items[2]!.querySelector('.visible-mark')).not.toBeNull();
  });

  it('says where its model is reached and whose key it uses, when the launch says so', () => {
    renderCard(
      cardOf(
        body({
          modelEndpoint: 'model endpoint on this machine: 127.0.0.1:11434',
          keySource:
            'Uses the Anthropic key saved in Gatehouse: Gatehouse adds it to each request to api.anthropic.com outside the jail, and the agent is given a stand-in.',
        }),
      ),
    );
    const card = openCard();
    expect(card).toHaveTextContent('Its model is reached on this machine, past the proxy: 127.0.0.1:11434');
    expect(card).toHaveTextContent('Uses the Anthropic key saved in Gatehouse');
  });

  it('says neither when the agent uses its own host and key', () => {
    renderCard(cardOf(body()));
    expect(openCard()).not.toHaveTextContent('past the proxy');
    expect(openCard()).not.toHaveTextContent('saved in Gatehouse');
  });

  it('lists what it sees read-only, where it may write, its hosts and its variable names', () => {
    const b = body();
    renderCard(cardOf(b));
    const card = openCard();
    const readOnly = within(card).getByRole('list', { name: 'Sees read-only' });
    expect(
      within(readOnly)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(b.readOnly);
    const writable = within(card).getByRole('list', { name: 'May write only in' });
    expect(writable).toHaveTextContent(b.writable[0]!);
    const hosts = within(card).getByRole('list', { name: /May reach only these hosts/ });
    expect(
      within(hosts)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(b.domains);
    const env = within(card).getByRole('list', { name: /Is given the variables \(values not shown\)/ });
    expect(
      within(env)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(b.envNames);
  });

  it('says "No network" when it has no hosts, and no variables when it is given none', () => {
    renderCard(cardOf(body({ domains: [], envNames: [] })));
    expect(openCard()).toHaveTextContent('No network.');
    expect(openCard()).toHaveTextContent('Is given none of your environment variables.');
  });

  it('says what holds for an external agent on the open card', () => {
    renderCard(cardOf(body()));
    const holds = within(openCard()).getByRole('list', { name: 'What holds for an external agent' });
    expect(
      within(holds)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(AGENT_HOLDS);
  });

  it('is one line in the record, "start Claude Code 0.10.0", with where it could reach once answered', async () => {
    const { container } = renderCard(cardOf(body()), { state: 'answered', answer: 'allow_session' }, false);
    const line = within(container).getByRole('button', { expanded: false });
    expect(line).toHaveTextContent('start Claude Code 0.10.0');
    expect(container).toHaveTextContent('network only to api.anthropic.com, statsig.anthropic.com');
    await userEvent.click(line);
    expect(container.querySelector('.card-record-details .card-body')).toHaveTextContent('Sees read-only');
  });

  it('takes its colours from the theme, so it reads the same light and dark', () => {
    const css = readFileSync(join(__dirname, '../../../../../renderer/src/components/cards/agent-cards.css'), 'utf8');
    expect(css.match(/#[0-9a-f]{3,8}\b|rgba?\(/gi) ?? []).toEqual([]);
  });
});

describe('a staged agent’s start card (SPEC §15)', () => {
  const place = '/home/me/.local/share/gatehouse/places/s1/api';
  const origin = '/home/me/src/api';
  const words =
    'its writes and commands run inside its own place without a card; only what you apply reaches your folder';

  it('lists its place where it may write and says, in words, that your folder is out of its sight', () => {
    const b = body({
      agent: 'codex',
      label: 'Codex',
      readOnly: [`${origin}/.git`],
      writable: [place, '/home/me/.local/share/gatehouse/agents/codex/home'],
      place: { path: place, origin, words },
    });
    renderCard(cardOf(b));
    const card = screen.getByRole('region', { name: 'Permission: start Codex' });
    expect(within(card).getByRole('list', { name: 'May write only in' })).toHaveTextContent(place);
    expect(card).toHaveTextContent(
      `Its writes and commands run inside its own place without a card; only what you apply reaches your folder. It cannot see your folder ${origin}.`,
    );
    // The gated agents' sentences (its writes come through the gate) do not hold for it.
    expect(within(card).queryByRole('list', { name: 'What holds for an external agent' })).toBeNull();
    // Your .git, seen beside "it cannot see your folder", says why.
    expect(within(card).getByRole('list', { name: 'Sees read-only' })).toHaveTextContent(
      `${origin}/.git (your repository’s history only, not its files, so git works in its place)`,
    );
  });

  it('says in its record that it wrote in its own place, never that the workspace was read-only', () => {
    const b = body({
      agent: 'codex',
      label: 'Codex',
      domains: ['api.openai.com'],
      place: { path: place, origin, words },
    });
    const { container } = renderCard(cardOf(b), { state: 'answered', answer: 'allow_session' }, false);
    const note = container.querySelector('.card-record-sandbox');
    expect(note).toHaveTextContent(
      'Jailed: writes only in its own place and its private home, your folder unseen; network only to api.openai.com.',
    );
    expect(note).not.toHaveTextContent('read-only');
  });
});
