/**
 * The one map from card kind to view (DESIGN.md: describe a card kind once on each side).
 * SAMPLES is typed by every kind of CardBody, so `npm run typecheck` fails when a kind
 * has no sample; the tests below fail when a kind with a sample has no view, or a view
 * that shows nothing.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answersFor, describeCard, type Answer } from '../../../../../shared/cards';
import type { CardOutcome } from '../../../../../shared/reducer';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { cardLabel } from '../../../../../renderer/src/components/cards/card-label';
import { CARD_VIEWS, type BodyOf, type CardKind } from '../../../../../renderer/src/components/cards/card-views';
import { PermissionCard } from '../../../../../renderer/src/components/cards/PermissionCard';
import { reaskedNote } from '../../../../../renderer/src/components/cards/reasked-note';
import { createFakeApi } from '../../fake-api';
import { stubLayout } from '../layout-stub';
import {
  SESSION,
  WORKSPACE,
  agentAskBody,
  agentStartBody,
  cardOf,
  commandBody,
  mcpBody,
  mcpServerBody,
  placeApplyBody,
  readBody,
  writeBody,
} from './card-fixtures';

stubLayout();

const SAMPLES = {
  write: writeBody() as BodyOf<'write'>,
  read: readBody() as BodyOf<'read'>,
  command: commandBody(['npm', 'test']) as BodyOf<'command'>,
  mcp: mcpBody() as BodyOf<'mcp'>,
  mcp_server: mcpServerBody() as BodyOf<'mcp_server'>,
  agent_start: agentStartBody() as BodyOf<'agent_start'>,
  agent_ask: agentAskBody() as BodyOf<'agent_ask'>,
  place_apply: placeApplyBody() as BodyOf<'place_apply'>,
} satisfies { [K in CardKind]: BodyOf<K> };

const KINDS = Object.keys(SAMPLES) as CardKind[];

function renderCard(kind: CardKind, outcome: CardOutcome, pinned: boolean) {
  const card = cardOf(SAMPLES[kind]);
  const result = render(
    <ApiProvider api={createFakeApi().api}>
      <PermissionCard sessionId={SESSION} workspace={WORKSPACE} card={card} outcome={outcome} pinned={pinned} />
    </ApiProvider>,
  );
  return { card, ...result };
}

describe('the map from card kind to view', () => {
  it('has exactly one view for every kind of card', () => {
    expect(Object.keys(CARD_VIEWS).sort()).toEqual([...KINDS].sort());
    for (const kind of KINDS) {
      expect(typeof CARD_VIEWS[kind].Body, kind).toBe('function');
      expect(typeof CARD_VIEWS[kind].RecordSubject, kind).toBe('function');
      expect(CARD_VIEWS[kind].reasked.length, kind).toBeGreaterThan(20);
      expect(CARD_VIEWS[kind].staleWhat, kind).not.toBe('');
    }
  });

  it.each(KINDS)(
    'shows an open %s card as a region named by describeCard, with its content and the answers its kind takes',
    (kind) => {
      const { card } = renderCard(kind, { state: 'open' }, true);
      const region = screen.getByRole('region', { name: cardLabel(card.body, WORKSPACE) });
      expect(region.getAttribute('aria-label')).toBe(
        `Permission: ${describeCard(card.body, (p) => p.replace(`${WORKSPACE}/`, '')).subject}`,
      );
      expect(region.querySelector('.card-body')?.textContent?.length).toBeGreaterThan(10);
      const names = { allow_once: 'Allow once', allow_session: 'Allow for this session', deny: 'Deny' };
      for (const [answer, name] of Object.entries(names)) {
        const button = within(region).queryByRole('button', { name: new RegExp(`^${name}`) });
        if (answersFor(kind).includes(answer as Answer)) expect(button).toBeInTheDocument();
        else expect(button).toBeNull();
      }
      expect(region).toHaveTextContent(card.scope);
    },
  );

  it.each(KINDS)('shows a %s card in the record as one line that opens to the same content', async (kind) => {
    const { card, container } = renderCard(kind, { state: 'answered', answer: 'allow_once' }, false);
    const line = within(container).getByRole('button', { expanded: false });
    const words = describeCard(card.body);
    expect(line).toHaveTextContent(kind === 'read' ? (card.body as BodyOf<'read'>).tool : words.verb);
    expect(line).toHaveTextContent('Allowed once');
    await userEvent.click(line);
    expect(container.querySelector('.card-record-details .card-body')?.textContent?.length).toBeGreaterThan(10);
    expect(screen.queryByRole('button', { name: /^Deny/ })).toBeNull();
  });

  it.each(KINDS)('a re-asked %s card says so at its top in its own words', (kind) => {
    const { fixed } = reaskedNote(kind, '');
    expect(fixed).toBe(CARD_VIEWS[kind].reasked);
  });

  it('says what changed when a card was dropped, by kind', () => {
    renderCard('mcp', { state: 'stale', answer: 'allow_once', reason: 'the tool changed' }, false);
    expect(screen.getByRole('button', { expanded: false })).toHaveTextContent(
      'Dropped: tool changed (the tool changed)',
    );
  });
});
