/**
 * The real Codex as the tests script it against the fake OpenAI Responses API: who it is
 * (its key, its model host), and the model's moves. Codex 0.166 offers the model one tool,
 * `exec` (JavaScript that calls its nested tools `apply_patch` and `exec_command`), so a
 * script speaks through it: the person's message names the turn ("TURN-0"), the model's
 * first answer is that turn's one `exec` call, and once its output came back plain text
 * ends the turn.
 */
import type { RecordedRequest } from '../../../../fake-model/server.js';
import type { Move, RealAgent } from './real-agent-harness.js';

export const CODEX: RealAgent = {
  id: 'codex',
  key: { name: 'OPENAI_API_KEY', value: 'sk-test-codex-0123456789abcdef' },
  baseUrlVariable: 'OPENAI_BASE_URL',
  domains: ['api.openai.com'],
  describe: (r) => `${r.path} ${JSON.stringify(inputOf(r).at(-1) ?? null).slice(0, 200)}`,
};

type Item = { type?: string; role?: string; content?: unknown; output?: unknown; call_id?: unknown };

export const inputOf = (request: RecordedRequest): Item[] =>
  (request.body as { input?: Item[] } | undefined)?.input ?? [];

/** Whether a request is Codex's (the Responses API), not another session's model. */
export const isCodex = (request: RecordedRequest): boolean => request.path.endsWith('/responses');

/** What Codex sent back for each `exec` call, as text, from every request it made. */
export function execOutputs(requests: readonly RecordedRequest[]): string[] {
  // From every request: Codex may ask its model again after the turn's last step (a title, a summary).
  const outputs = new Map<string, string>();
  for (const request of requests) {
    for (const item of inputOf(request)) {
      if (item.type === 'custom_tool_call_output') outputs.set(String(item.call_id), JSON.stringify(item.output));
    }
  }
  return [...outputs.values()];
}

/** The model's moves: turn N (the person wrote "TURN-N") runs `sources()[N]` in one `exec` call. */
export function codexScript(sources: () => readonly string[]): Move {
  return (request) => {
    const input = inputOf(request);
    const at = input.findLastIndex((i) => i.role === 'user' && /TURN-\d+/.test(JSON.stringify(i.content)));
    if (at < 0) return { text: 'ok' };
    if (input.slice(at + 1).some((i) => i.type === 'custom_tool_call_output')) return { text: 'Done.' };
    const turn = Number(/TURN-(\d+)/.exec(JSON.stringify(input[at]!.content))![1]);
    const source = sources()[turn];
    return source === undefined ? { text: 'Done.' } : { toolCalls: [{ name: 'exec', input: source }] };
  };
}

/** An `exec` source that applies `patch` (apply_patch's own format), then runs `cmd` in the place. */
export function patchThenRun(patch: string, cmd: string): string {
  return [
    `text(JSON.stringify(await tools.apply_patch(${JSON.stringify(patch)})));`,
    `const run = await tools.exec_command({ cmd: ${JSON.stringify(cmd)}, login: false, yield_time_ms: 30000 });`,
    'text(run.output);',
  ].join('\n');
}
