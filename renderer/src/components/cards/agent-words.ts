/**
 * The words every place that shows an external agent says (SPEC §14): what holds for its
 * process, and which of the card's three answers stands for which of the agent's own
 * options. One file, so Settings → Agents and the agent's cards never say it differently.
 */
import type { Answer } from '../../../../shared/cards';

/** What holds for an external agent, one promise a line (Settings → Agents and the start card). */
export const AGENT_HOLDS: readonly string[] = [
  'Its process sees the workspace read-only, and a private home of its own.',
  'Its writes and commands come through the gate as cards, like Gatehouse’s own.',
  'Its own web fetches are asked, not jailed, unless its network is off.',
  'Gatehouse never brokers a login: the agent signs in with its own key or its own login in its private home.',
];

/** ACP's option kinds, answered with the card's three standard answers. */
const ANSWER_OF_KIND: Record<string, Answer> = {
  allow_once: 'allow_once',
  allow_always: 'allow_session',
  reject_once: 'deny',
  reject_always: 'deny',
};

export const ANSWER_WORDS: Record<Answer, string> = {
  allow_once: 'Allow once',
  allow_session: 'Allow for this session',
  deny: 'Deny',
};

/** The card's answer that stands for one of the agent's options, or null for a kind ACP does not name. */
export function answerOfOptionKind(kind: string): Answer | null {
  return Object.hasOwn(ANSWER_OF_KIND, kind) ? ANSWER_OF_KIND[kind]! : null;
}
