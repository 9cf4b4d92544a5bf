/**
 * Everything waiting for the person, across sessions, oldest first: each open card and
 * question of a loaded session, and for a session not loaded yet, its summary's count.
 */
import { describeCard } from '../../../shared/cards';
import type { CardEvent, QuestionEvent } from '../../../shared/reducer';
import type { SessionEntry } from './sessions-slice';

export type WaitingItem =
  | { kind: 'card'; key: string; sessionId: string; title: string; workspace: string; ts: string; card: CardEvent }
  | {
      kind: 'question';
      key: string;
      sessionId: string;
      title: string;
      workspace: string;
      ts: string;
      question: QuestionEvent;
    }
  | { kind: 'unloaded'; key: string; sessionId: string; title: string; workspace: string; ts: string; count: number };

export function waitingItems(sessions: Record<string, SessionEntry>): WaitingItem[] {
  const items: WaitingItem[] = [];
  for (const { summary, state } of Object.values(sessions)) {
    const base = { sessionId: summary.id, title: summary.title, workspace: summary.workspace };
    if (!state) {
      if (summary.waiting > 0) {
        items.push({
          ...base,
          kind: 'unloaded',
          key: `${summary.id}:*`,
          ts: summary.updatedAt,
          count: summary.waiting,
        });
      }
      continue;
    }
    for (const card of state.openCards) items.push({ ...base, kind: 'card', key: card.cardId, ts: card.ts, card });
    const q = state.openQuestion;
    if (q) items.push({ ...base, kind: 'question', key: q.questionId, ts: q.ts, question: q });
  }
  return items.sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0));
}

/** How many things wait, counting an unloaded session's summary. */
export function waitingCount(items: readonly WaitingItem[]): number {
  return items.reduce((n, item) => n + (item.kind === 'unloaded' ? item.count : 1), 0);
}

/** What a waiting item asks for, in a few words: "write src/a.ts", "run npm test", a question. */
export function describeWaiting(item: WaitingItem): string {
  if (item.kind === 'unloaded') return item.count === 1 ? '1 item waiting' : `${item.count} items waiting`;
  if (item.kind === 'question') return `asks: ${item.question.question}`;
  const { verb, target } = describeCard(item.card.body, (p) => relativeTo(item.workspace, p));
  return `${verb} ${target}`;
}

function relativeTo(workspace: string, path: string): string {
  const root = workspace.endsWith('/') ? workspace : `${workspace}/`;
  return path.startsWith(root) ? path.slice(root.length) : path;
}
