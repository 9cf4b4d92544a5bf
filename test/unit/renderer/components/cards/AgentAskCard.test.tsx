/** An external agent's own question (ACP session/request_permission; SPEC §14), as a card. */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AgentAskCardBody } from '../../../../../shared/cards';
import type { CardEvent, CardOutcome } from '../../../../../shared/reducer';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { PermissionCard } from '../../../../../renderer/src/components/cards/PermissionCard';
import { createFakeApi } from '../../fake-api';
import { SESSION, WORKSPACE, agentAskBody, cardOf } from './card-fixtures';

const LABEL = 'Permission: Claude Code: Fetch https://nodejs.org/api/fs.html';

function body(overrides: Partial<AgentAskCardBody> = {}): AgentAskCardBody {
  return agentAskBody(overrides) as AgentAskCardBody;
}

function renderCard(card: CardEvent, outcome: CardOutcome = { state: 'open' }, pinned = true) {
  return render(
    <ApiProvider api={createFakeApi().api}>
      <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={card} outcome={outcome} pinned={pinned} />
    </ApiProvider>,
  );
}

describe("an external agent's own question", () => {
  it("says it is the agent's own question, not the gate", () => {
    renderCard(cardOf(body()));
    expect(screen.getByRole('region', { name: LABEL })).toHaveTextContent(
      'This is Claude Code’s own question, not the gate: its writes and commands still come to you as the gate’s cards.',
    );
  });

  it("shows the agent's title, its kind of tool and what it showed with it", () => {
    renderCard(cardOf(body()));
    const card = screen.getByRole('region', { name: LABEL });
    expect(card.querySelector('.card-subject')).toHaveTextContent(
      'Fetch https://nodejs.org/api/fs.html (Claude Code’s tool of kind fetch)',
    );
    expect(card.querySelector('.agent-ask-detail')).toHaveTextContent('Read the fs API page');
  });

  it("marks invisible characters in the agent's title and detail", () => {
    renderCard(cardOf(body({ title: 'Fetch a\u202eb', detail: 'zero\u200bwidth' })));
    const card = document.querySelector('.card-body-agent-ask')!;
    expect(card.querySelector('.agent-ask-title .visible-mark')).not.toBeNull();
    expect(card.querySelector('.agent-ask-detail .visible-mark')).not.toBeNull();
  });

  it('names each option as the agent named it, beside the standard answer that gives it', () => {
    renderCard(
      cardOf(
        body({
          options: [
            { optionId: 'a', name: 'Yes', kind: 'allow_once' },
            { optionId: 'b', name: 'Always', kind: 'allow_always' },
            { optionId: 'c', name: 'No', kind: 'reject_once' },
            { optionId: 'd', name: 'Never', kind: 'reject_always' },
            { optionId: 'e', name: 'Maybe', kind: 'ponder' },
          ],
        }),
      ),
    );
    const list = screen.getByRole('list', { name: "The agent's options" });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Allow once answers “Yes”',
      'Allow for this session answers “Always”',
      'Deny answers “No”',
      'Deny answers “Never”',
      '“Maybe” has no button (its kind, ponder, is not one ACP names)',
    ]);
    const card = screen.getByRole('region', { name: LABEL });
    for (const name of ['Allow once', 'Allow for this session', 'Deny']) {
      expect(within(card).getByRole('button', { name: new RegExp(`^${name}`) })).toBeInTheDocument();
    }
  });

  it('is one line in the record with the agent and its title', async () => {
    const { container } = renderCard(cardOf(body()), { state: 'answered', answer: 'deny' }, false);
    const line = within(container).getByRole('button', { expanded: false });
    expect(line).toHaveTextContent('allow Claude Code: Fetch https://nodejs.org/api/fs.html');
    await userEvent.click(line);
    expect(container.querySelector('.card-record-details .card-body')).toHaveTextContent('Its options');
  });
});
