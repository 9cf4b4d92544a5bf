/** A workspace MCP server's start card (SPEC §10; UI.md card rules 1, 2 and 7). */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { McpServerCardBody } from '../../../../../shared/cards';
import type { CardEvent, CardOutcome } from '../../../../../shared/reducer';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { PermissionCard } from '../../../../../renderer/src/components/cards/PermissionCard';
import { createFakeApi } from '../../fake-api';
import { SESSION, WORKSPACE, cardOf, mcpServerBody } from './card-fixtures';

const LABEL = 'Permission: start MCP server files';

function body(overrides: Partial<McpServerCardBody> = {}): McpServerCardBody {
  return mcpServerBody(overrides) as McpServerCardBody;
}

function renderCard(card: CardEvent, outcome: CardOutcome = { state: 'open' }, pinned = true) {
  return render(
    <ApiProvider api={createFakeApi().api}>
      <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={card} outcome={outcome} pinned={pinned} />
    </ApiProvider>,
  );
}

const openCard = () => screen.getByRole('region', { name: LABEL });

describe("a workspace MCP server's start card (stdio)", () => {
  it('says which server starts, from which file', () => {
    renderCard(cardOf(body()));
    const card = openCard();
    expect(card.querySelector('.card-subject')).toHaveTextContent('Start MCP server files');
    expect(card).toHaveTextContent('from .mcp.json');
    expect(within(card).getByTitle(`${WORKSPACE}/.mcp.json`)).toBeInTheDocument();
  });

  it('shows the exact argv as separate tokens, and the folder', () => {
    renderCard(cardOf(body({ argv: ['npx', '-y', 'server name', ' edge'] })));
    const tokens = within(openCard()).getByRole('list', { name: 'Command and arguments' });
    expect(
      within(tokens)
        .getAllByRole('listitem')
        .map((t) => t.textContent),
    ).toEqual(['npx', '-y', 'server name', '␣edge']);
    expect(openCard()).toHaveTextContent('in . (the workspace folder)');
  });

  it('names the variables it sets, never their values', () => {
    renderCard(cardOf(body()));
    const names = within(openCard()).getByRole('list', { name: 'Sets the variables' });
    expect(
      within(names)
        .getAllByRole('listitem')
        .map((n) => n.textContent),
    ).toEqual(['API_TOKEN', 'LOG_LEVEL']);
    expect(openCard()).toHaveTextContent('Sets the variables (values not shown):');
  });

  it('names each of your variables it takes and the field it feeds, never a value', () => {
    renderCard(
      cardOf(
        body({
          argv: ['npx', '-y', 'server', '${HOME}'],
          envNames: ['GITHUB_TOKEN'],
          variables: [
            { field: 'args[3]', variable: 'HOME' },
            { field: 'env GITHUB_TOKEN', variable: 'GITHUB_TOKEN' },
          ],
        }),
      ),
    );
    const feeds = within(openCard()).getByRole('list', { name: 'Takes your environment variables' });
    expect(
      within(feeds)
        .getAllByRole('listitem')
        .map((n) => n.textContent),
    ).toEqual(['args[3] ← $HOME', 'env GITHUB_TOKEN ← $GITHUB_TOKEN']);
    expect(openCard()).toHaveTextContent('Takes your environment variables (values not shown):');
  });

  it('says nothing of your variables when it takes none', () => {
    renderCard(cardOf(body({ variables: [] })));
    expect(within(openCard()).queryByRole('list', { name: 'Takes your environment variables' })).toBeNull();
  });

  it('says plainly that it runs confined with network, in one quiet line', () => {
    renderCard(cardOf(body()));
    const line = within(openCard())
      .getByText(/^Confined:/)
      .closest('p')!;
    expect(line).toHaveTextContent(
      'Confined: writes only in /home/me/src/project (not .git/hooks); with network; cannot see /home/me/.ssh',
    );
    expect(line).toHaveClass('card-sandbox');
    expect(within(openCard()).queryAllByRole('note')).toEqual([]);
  });

  it('says "Unconfined" and why as a warning before the answers', () => {
    renderCard(cardOf(body({ sandbox: { confined: false, reason: 'bubblewrap is not installed' } })));
    const note = within(openCard()).getByRole('note');
    expect(note).toHaveTextContent('Unconfined: bubblewrap is not installed');
    expect(note.closest('.card-scroll')).toBeNull();
    const allow = within(openCard()).getByRole('button', { name: /^Allow once/ });
    expect(note.compareDocumentPosition(allow) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says in amber words when its config changed since it was allowed', () => {
    renderCard(
      cardOf(body({ changed: 'its command, arguments, variables or URL differ from what you allowed before' })),
    );
    const note = within(openCard()).getByRole('note');
    expect(note).toHaveTextContent(
      'Its config changed since you allowed it: its command, arguments, variables or URL differ from what you allowed before',
    );
    expect(note).toHaveClass('card-warning');
  });

  it('offers the scope in words', () => {
    const card = cardOf(body());
    renderCard(card);
    expect(within(openCard()).getByRole('button', { name: /^Allow for this session/ })).toHaveAccessibleDescription(
      card.scope,
    );
  });
});

describe("a workspace MCP server's start card (HTTP)", () => {
  const http = () =>
    body({
      argv: undefined,
      cwd: undefined,
      envNames: undefined,
      sandbox: undefined,
      url: 'https://mcp.example.com/v1',
      headerNames: ['Authorization'],
    });

  it('names the variable a header takes: header Authorization ← $GITHUB_TOKEN', () => {
    renderCard(cardOf({ ...http(), variables: [{ field: 'header Authorization', variable: 'GITHUB_TOKEN' }] }));
    const feeds = within(openCard()).getByRole('list', { name: 'Takes your environment variables' });
    expect(feeds).toHaveTextContent('header Authorization ← $GITHUB_TOKEN');
  });

  it('shows the URL and the header names, and that nothing runs here', () => {
    renderCard(cardOf(http()));
    const card = openCard();
    expect(card).toHaveTextContent('Connects to https://mcp.example.com/v1');
    const names = within(card).getByRole('list', { name: 'Sends the headers' });
    expect(names).toHaveTextContent('Authorization');
    expect(card).toHaveTextContent('Nothing runs on this machine');
    expect(within(card).queryByRole('list', { name: 'Command and arguments' })).toBeNull();
    expect(within(card).queryAllByRole('note')).toEqual([]);
  });
});

describe("a server's start in the transcript record", () => {
  it('is one line with its argv, and what it could reach under it', () => {
    const { container } = renderCard(cardOf(body()), { state: 'answered', answer: 'allow_once' }, false);
    const line = within(container).getByRole('button', { expanded: false });
    expect(line).toHaveTextContent('start MCP server files');
    expect(within(line).getByRole('list', { name: 'Command and arguments' })).toBeInTheDocument();
    expect(container.querySelector('.card-record-sandbox')).toHaveTextContent('with network');
  });

  it('opens to the whole card, without a second sandbox line', async () => {
    const { container } = renderCard(cardOf(body()), { state: 'answered', answer: 'deny' }, false);
    await userEvent.click(within(container).getByRole('button', { expanded: false }));
    expect(container.querySelector('.card-record-details')).toHaveTextContent('API_TOKEN');
    expect(container.querySelectorAll('.card-sandbox')).toHaveLength(0);
  });
});
