/**
 * Issue 33's "done when", as a person does it: the real web host (`npm run serve`) with
 * external agents pointed at a fake Anthropic model on loopback (`--agent-model-endpoint`),
 * Claude Code installed from Settings → Agents (npm from its offline cache: no network),
 * a session opened with it on a small project whose test fails, "fix the failing test"
 * sent, and its start card, write card and command card answered in the window, then the
 * turn's Undo. Each step calls `at(state)` so the look script photographs it and the e2e
 * test checks it; everything lives under /var/tmp (a confined process has a private /tmp).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { startFakeModel, type FakeModel, type FakeReply, type RecordedRequest } from '../../fake-model/server.js';
import { freshContext, launchChromium } from './chromium.js';
import { GatehousePage, runCardLabel, visible, writeCardLabel } from './gatehouse-page.js';
import { startWebHost, type WebHost } from './web-host.js';

/** The project: a sum that subtracts, and the test that says so. */
export const BUGGY_SUM = 'export function sum(a, b) {\n  return a - b;\n}\n';
export const FIXED_SUM = 'export function sum(a, b) {\n  return a + b;\n}\n';
const SUM_TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sum } from './sum.js';

test('adds two numbers', () => {
  assert.equal(sum(2, 3), 5);
});
`;
const PACKAGE_JSON = '{ "name": "sum", "type": "module", "private": true }\n';

/** The model's closing words, which the transcript shows once the test passes. */
export const CLOSING_TEXT =
  'sum.js subtracted instead of adding, and the test wants sum(2, 3) to be 5. I made it add; node --test passes now.';

/** The key Claude Code is given: made up, and never to be seen in the window. */
export const LOOK_KEY = 'sk-ant-look-0123456789abcdef';

export type FlowState = 'installed' | 'start-card' | 'write-card' | 'command-card' | 'transcript' | 'undone';

export interface FlowWorld {
  root: string;
  project: string;
  fake: FakeModel;
  host: WebHost;
  browser: Browser;
  ui: GatehousePage;
  close(): Promise<void>;
}

/** The fake model's part: read the test, write the fix through the gate, run the test through the gate, say so. */
export function fixTheTest(project: string): (request: RecordedRequest) => FakeReply {
  const steps: FakeReply[] = [
    { toolCalls: [{ name: 'Read', input: { file_path: path.join(project, 'sum.test.js') } }] },
    { toolCalls: [{ name: 'mcp__gatehouse__write_file', input: { path: 'sum.js', content: FIXED_SUM } }] },
    { toolCalls: [{ name: 'mcp__gatehouse__run', input: { argv: ['node', '--test'] } }] },
    { text: CLOSING_TEXT },
  ];
  return (request) => {
    const body = request.body as { tools?: { name: string }[]; messages?: { role: string; content: unknown }[] };
    // A title or a summary the CLI asks for on the side: the main conversation offers the gate's tools.
    if (!body.tools?.some((t) => t.name.startsWith('mcp__gatehouse__'))) return { text: 'Fix the failing test' };
    const messages = body.messages ?? [];
    const isResult = (m: { content: unknown }) => JSON.stringify(m.content).includes('"tool_result"');
    const asked = messages.findLastIndex((m) => m.role === 'user' && !isResult(m));
    const step = messages.slice(asked + 1).filter(isResult).length;
    return steps[step] ?? { text: 'Done.' };
  };
}

/** The project, the fake model, the real web host and Chromium on its URL. */
export async function startFlowWorld(options: { width?: number; height?: number } = {}): Promise<FlowWorld> {
  const root = await fs.realpath(await fs.mkdtemp('/var/tmp/gatehouse-real-claude-'));
  const project = path.join(root, 'sum-project');
  const dataDir = path.join(root, 'data');
  const home = path.join(root, 'home');
  for (const dir of [project, dataDir, home]) await fs.mkdir(dir);
  await fs.writeFile(path.join(project, 'sum.js'), BUGGY_SUM);
  await fs.writeFile(path.join(project, 'sum.test.js'), SUM_TEST);
  await fs.writeFile(path.join(project, 'package.json'), PACKAGE_JSON);
  const fake = await startFakeModel();
  fake.setResponder(fixTheTest(project));
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
      env: {
        ANTHROPIC_API_KEY: LOOK_KEY,
        // Settings → Agents runs npm: from the cache CI filled, never the network.
        npm_config_offline: 'true',
        npm_config_cache: process.env.npm_config_cache ?? path.join(process.env.HOME ?? '/root', '.npm'),
      },
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

/** Settings → Agents → Claude Code → Install, unless it is installed already; the dialog closed again. */
export async function installClaudeCode(page: Page, at: (state: FlowState) => Promise<void>): Promise<void> {
  await page.getByRole('navigation', { name: 'Sessions' }).getByRole('button', { name: 'Settings' }).click();
  const dialog = await visible(page.getByRole('dialog', { name: 'Settings' }), 'the Settings dialog');
  const claude = await visible(
    dialog.getByRole('region', { name: 'Agents' }).getByRole('listitem', { name: 'Claude Code' }),
    'Claude Code in Settings → Agents',
  );
  const install = claude.getByRole('button', { name: 'Install', exact: true });
  if (await install.count()) await install.click();
  // npm copies the CLI's native binary (about 340 MB) from its cache: give it time.
  await visible(
    claude.getByRole('button', { name: 'Remove', exact: true }),
    'Claude Code installed (its Remove button)',
    240_000,
  );
  await claude.scrollIntoViewIfNeeded();
  await at('installed');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Ctrl+O, the project's path, Claude Code picked as its agent, Open. */
export async function openWithClaude(ui: GatehousePage, project: string): Promise<void> {
  const before = await ui.tabs().count();
  await ui.page.keyboard.press('Control+o');
  const dialog = await visible(ui.page.getByRole('dialog'), 'the open-folder dialog');
  await dialog.getByRole('combobox', { name: 'Agent' }).selectOption('claude-code');
  const field = dialog
    .getByRole('textbox')
    .or(dialog.getByRole('combobox', { name: 'Folder' }))
    .first();
  await field.fill(project);
  await field.press('Enter');
  await visible(ui.tabs().nth(before), 'the new session’s tab');
  await visible(ui.composer(), 'the composer of the new session');
}

/**
 * The whole flow after the install: open, ask, allow the start, the write and the command,
 * see the closing text, undo the turn. `at` runs at each state before it is answered.
 */
export async function fixWithClaude(
  world: FlowWorld,
  at: (state: FlowState) => Promise<void>,
  options: { install?: boolean } = {},
): Promise<void> {
  const { ui, project } = world;
  if (options.install !== false) await installClaudeCode(ui.page, at);
  await openWithClaude(ui, project);
  await ui.send('fix the failing test');

  const start = await ui.waitForCard('Permission: start Claude Code');
  await armedCard(start);
  await at('start-card');
  await ui.answer(start, 'Allow for this session');

  const write = await ui.waitForCard(writeCardLabel(project, 'sum.js'));
  await armedCard(write);
  await at('write-card');
  await ui.answer(write, 'Allow once');

  const run = await ui.waitForCard(runCardLabel('node'));
  await armedCard(run);
  await at('command-card');
  await ui.answer(run, 'Allow once');

  await visible(ui.page.getByText(CLOSING_TEXT), 'the model’s closing text', 120_000);
  await at('transcript');

  await ui.page.getByRole('button', { name: /^Changes · 1 file/ }).click();
  const changes = await visible(ui.page.getByRole('dialog', { name: 'Changes' }), 'the Changes dialog');
  await changes.getByRole('button', { name: 'Undo turn' }).click();
  await visible(changes.getByText('Undone.'), 'the Changes view saying "Undone."');
  await at('undone');
}

/** A card's answers armed (0.5 s after it shows): the photograph shows what a person acts on. */
async function armedCard(card: Locator): Promise<void> {
  await card
    .getByRole('button', { name: 'Allow once', exact: true })
    .and(card.locator('[aria-disabled="false"], :not([aria-disabled])'))
    .waitFor();
}
