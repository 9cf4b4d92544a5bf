/**
 * The real opencode as the tests script it against the fake Anthropic API (its Anthropic
 * provider reads ANTHROPIC_BASE_URL): who it is, and the model's moves in its main
 * conversation (the request offering its tools): after the person's "TURN-N", each tool
 * result moves to the next call of that turn; past the last, plain text ends the turn.
 * Anything else it asks (a title) gets a short text.
 */
import type { RecordedRequest } from '../../../../fake-model/server.js';
import type { Move, RealAgent } from './real-agent-harness.js';

export const OPENCODE: RealAgent = {
  id: 'opencode',
  key: { name: 'ANTHROPIC_API_KEY', value: 'sk-ant-test-opencode-0123456789' },
  baseUrlVariable: 'ANTHROPIC_BASE_URL',
  domains: ['api.anthropic.com'],
  describe: (r) => `${r.path} ${String((r.body as { model?: string } | undefined)?.model)}`,
};

export interface OpencodeCall {
  name: string;
  input: unknown;
}

type Message = { role: string; content: unknown };
const messagesOf = (r: RecordedRequest): Message[] => (r.body as { messages?: Message[] } | undefined)?.messages ?? [];
const isMain = (r: RecordedRequest): boolean =>
  ((r.body as { tools?: { name: string }[] } | undefined)?.tools ?? []).some((t) => t.name === 'bash');

export function opencodeScript(turns: () => readonly (readonly OpencodeCall[])[]): Move {
  return (request) => {
    if (!isMain(request)) return { text: 'A title' };
    const messages = messagesOf(request);
    const at = messages.findLastIndex((m) => m.role === 'user' && /TURN-\d+/.test(JSON.stringify(m.content)));
    if (at < 0) return { text: 'Done.' };
    const turn = Number(/TURN-(\d+)/.exec(JSON.stringify(messages[at]!.content))![1]);
    const step = messages.slice(at + 1).filter((m) => JSON.stringify(m.content).includes('"tool_result"')).length;
    const call = turns()[turn]?.[step];
    return call ? { toolCalls: [call] } : { text: 'Done.' };
  };
}

type ToolResultBlock = { type?: string; content?: string | { type?: string; text?: string }[] };

/** The text of each tool result the model was sent in the main conversation. */
export function toolResults(requests: readonly RecordedRequest[]): string[] {
  const last = requests.filter(isMain).at(-1);
  return (last ? messagesOf(last) : []).flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as ToolResultBlock[])
          .filter((b) => b.type === 'tool_result')
          .map((b) => (typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => c.text ?? '').join('')))
      : [],
  );
}
