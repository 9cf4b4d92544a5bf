/**
 * Issue 34's "done when" for Codex, as a person does it: the real web host (`npm run serve`)
 * with external agents pointed at a fake OpenAI Responses API on loopback
 * (`--agent-model-endpoint`), the pinned Codex from the agent cache CI fills (linked into the
 * data folder as Settings → Agents leaves an install), a session opened with it on a small
 * git repository whose test fails: its place is a worktree the app makes; "fix the failing
 * test" is sent, its start card allowed; Codex edits a file, adds one and runs the tests in
 * its place with no card; the review shows its diffs; Apply writes them into the person's
 * folder. Each step calls `at(state)` so the look script photographs it. Everything lives
 * under /var/tmp (a confined process has a private /tmp).
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { startFakeModel, type FakeModel, type FakeReply, type RecordedRequest } from '../../fake-model/server.js';
import { cachedAgent } from '../../support/agent-cache.js';
import { patchThenRun } from '../../unit/electron/core/agents/codex-script.js';
import { freshContext, launchChromium } from './chromium.js';
import { GatehousePage, visible } from './gatehouse-page.js';
import { BUGGY_SUM, FIXED_SUM } from './real-claude-flow.js';
import { startWebHost, type WebHost } from './web-host.js';

const SUM_TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sum } from './sum.js';

test('adds two numbers', () => {
  assert.equal(sum(2, 3), 5);
});
`;
const NEGATIVE_TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sum } from './sum.js';

test('adds negative numbers', () => {
  assert.equal(sum(-2, -3), -5);
});
`;
const PACKAGE_JSON = '{ "name": "sum", "type": "module", "private": true }\n';

/** What the person asks, and the model's closing words once the tests pass. */
export const ASK = 'fix the failing test';
export const CLOSING_TEXT =
  'sum.js subtracted instead of adding. I made it add, added a test for negative numbers, and node --test passes in my place. Review and apply the change when you are ready.';

/** The key Codex is given: made up, and never to be seen in the window. */
export const LOOK_KEY = 'sk-look-codex-0123456789abcdef';

export type CodexPlaceState = 'start-card' | 'transcript' | 'review' | 'applied';

export interface CodexPlaceWorld {
  root: string;
  project: string;
  fake: FakeModel;
  host: WebHost;
  browser: Browser;
  ui: GatehousePage;
  close(): Promise<void>;
}

/** Codex's one `exec` call: a patch that fixes sum.js and adds a test, then the tests run in the place. */
const WORK = patchThenRun(
  [
    '*** Begin Patch',
    '*** Update File: sum.js',
    '@@',
    ...BUGGY_SUM.trimEnd()
      .split('\n')
      .map((l) => `-${l}`),
    ...FIXED_SUM.trimEnd()
      .split('\n')
      .map((l) => `+${l}`),
    '*** Add File: sum.negative.test.js',
    ...NEGATIVE_TEST.trimEnd()
      .split('\n')
      .map((l) => `+${l}`),
    '*** End Patch',
    '',
  ].join('\n'),
  'node --test 2>&1 | tail -n 8',
);

type Item = { type?: string; role?: string; content?: unknown };

/** The fake model's part: one `exec` after the person's message, then the closing words. */
export function fixInPlace(request: RecordedRequest): FakeReply {
  const input = (request.body as { input?: Item[] } | undefined)?.input ?? [];
  const asked = input.findLastIndex((i) => i.role === 'user' && JSON.stringify(i.content).includes(ASK));
  if (asked < 0) return { text: 'Fix the failing test' };
  if (input.slice(asked + 1).some((i) => i.type === 'custom_tool_call_output')) return { text: CLOSING_TEXT };
  return { toolCalls: [{ name: 'exec', input: WORK }] };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=person@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

/** The person's repository, the fake model, Codex linked in, the real web host and Chromium on its URL. */
export async function startCodexPlaceWorld(
  options: { width?: number; height?: number } = {},
): Promise<CodexPlaceWorld> {
  const { prefix } = await cachedAgent('codex');
  const root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-real-codex-'));
  const project = path.join(root, 'sum-project');
  const dataDir = path.join(root, 'data');
  const home = path.join(root, 'home');
  for (const dir of [project, dataDir, home]) await fs.mkdir(dir);
  await fs.writeFile(path.join(project, 'sum.js'), BUGGY_SUM);
  await fs.writeFile(path.join(project, 'sum.test.js'), SUM_TEST);
  await fs.writeFile(path.join(project, 'package.json'), PACKAGE_JSON);
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'add', '-A');
  git(project, 'commit', '-q', '-m', 'sum, and its test');
  // As Settings → Agents leaves an install: <dataDir>/agents/codex/pkg.
  await fs.mkdir(path.join(dataDir, 'agents', 'codex'), { recursive: true });
  await fs.symlink(prefix, path.join(dataDir, 'agents', 'codex', 'pkg'));
  const fake = await startFakeModel();
  fake.setResponder(fixInPlace);
  const parts: { close(): Promise<unknown> }[] = [{ close: () => fake.close() }];
  const close = async () => {
    for (const part of parts.reverse()) await part.close().catch(() => undefined);
    await fs.rm(root, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  };
  try {
    const host = await startWebHost({
      dataDir,
      home,
      extraArgs: ['--agent-model-endpoint', `http://127.0.0.1:${new URL(fake.url).port}`],
      env: { OPENAI_API_KEY: LOOK_KEY },
    });
    parts.push({ close: () => host.stop() });
    const browser = await launchChromium();
    parts.push({ close: () => browser.close() });
    const context = await freshContext(browser, { width: options.width ?? 1280, height: options.height ?? 900 });
    const ui = new GatehousePage(await context.newPage());
    await ui.goto(host.url);
    return { root, project, fake, host, browser, ui, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Ctrl+O, Codex picked (its place is then forced), the project's path, Open. */
export async function openWithCodex(ui: GatehousePage, project: string): Promise<void> {
  const before = await ui.tabs().count();
  await ui.page.keyboard.press('Control+o');
  const dialog = await visible(ui.page.getByRole('dialog', { name: 'Open a folder' }), 'the Open dialog');
  await dialog.getByRole('combobox', { name: 'Agent' }).selectOption('codex');
  const box = dialog.getByRole('checkbox', { name: 'Work in a place of its own' });
  if (!(await box.isChecked()) || !(await box.isDisabled())) {
    throw new Error('Codex picked, yet the place of its own is not ticked and fixed');
  }
  const field = dialog.getByRole('combobox', { name: 'Folder' });
  await field.fill(project);
  await field.press('Enter');
  await visible(ui.tabs().nth(before), 'the new session’s tab');
  await visible(ui.page.getByRole('note', { name: 'Place of its own' }), 'the session’s place line');
  await visible(ui.composer(), 'the composer of the new session');
}

/** The whole flow: open, ask, allow the start, see the closing words, review, apply. `at` runs at each state. */
export async function fixWithCodexInPlace(
  world: CodexPlaceWorld,
  at: (state: CodexPlaceState) => Promise<void>,
): Promise<void> {
  const { ui, project } = world;
  await openWithCodex(ui, project);
  await ui.send(ASK);

  const start = await ui.waitForCard('Permission: start Codex');
  await armedCard(start);
  await at('start-card');
  await ui.answer(start, 'Allow for this session');

  await visible(ui.page.getByText(CLOSING_TEXT), 'the model’s closing text', 120_000);
  await at('transcript');

  await ui.page.keyboard.press('Control+Shift+G');
  const review = await visible(
    ui.page.getByRole('dialog', { name: 'Review the place’s changes' }),
    'the review screen after Ctrl+Shift+G',
  );
  const files = await visible(review.getByRole('list', { name: 'Files the session changed' }), 'the reviewed files');
  await visible(files.locator('.d2h-ins').filter({ hasText: 'return a + b' }).first(), 'the diff of sum.js');
  await at('review');

  await review.getByRole('button', { name: /^Apply to my folder \(2 files\)/ }).click();
  await visible(review.getByRole('status').getByText(`Applied 2 files to ${project}.`), 'what the apply did');
  await visible(review.getByText(/^None left to apply, 2 already in your folder\./), 'the review read again');
  await at('applied');
}

/** A card's answers armed (0.5 s after it shows): the photograph shows what a person acts on. */
async function armedCard(card: Locator): Promise<void> {
  await card
    .getByRole('button', { name: 'Allow once', exact: true })
    .and(card.locator('[aria-disabled="false"], :not([aria-disabled])'))
    .waitFor();
}
