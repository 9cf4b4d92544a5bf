/**
 * The step cap: a model that never stops calling tools is stopped after TURN_MAX_STEPS
 * model steps, with a turn_ended that says why, and the session stays usable.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { TURN_MAX_STEPS } from '../../../../../shared/limits.js';
import type { ChatClient } from '../../../../../electron/core/chat/chat-client.js';
import { createCore, type Core } from '../../../../../electron/core/core.js';

let core: Core | undefined;
let root: string | undefined;
afterEach(async () => {
  await core?.dispose();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

it(`stops a turn after ${TURN_MAX_STEPS} model steps and says why`, async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-cap-'));
  // Beside the data folder and the home folder: a folder holding either is refused as a workspace.
  const workspace = path.join(root, 'ws');
  await fs.mkdir(workspace);
  await fs.writeFile(path.join(workspace, 'a.txt'), 'a');
  let steps = 0;
  const endless: ChatClient = {
    async step() {
      steps++;
      const call = { toolCallId: `c${steps}`, toolName: 'list_dir', input: { path: '.' } };
      return {
        text: '',
        toolCalls: [call],
        finishReason: 'tool-calls',
        assistantMessage: { role: 'assistant', content: [] },
      };
    },
  };
  core = await createCore({
    dataDir: path.join(root, 'data'),
    env: {},
    home: root,
    cipher: null,
    durability: 'none',
    chatFactory: () => endless,
  });
  await core.host.call('settings.set', {
    model: { provider: 'openai-compatible', modelId: 'm', baseURL: 'http://127.0.0.1:9/v1' },
  });
  const session = await core.sessions.create(workspace);
  await session.send('loop forever');
  await session.idle();
  expect(steps).toBe(TURN_MAX_STEPS);
  const ended = session.allEvents().at(-1);
  expect(ended).toMatchObject({ type: 'turn_ended', reason: 'error', message: expect.stringContaining('step cap') });
  expect(session.allEvents().filter((e) => e.type === 'tool_result')).toHaveLength(TURN_MAX_STEPS);
  expect(session.summary().status).toBe('error');
});
