/** Settings' MCP servers section (SPEC §10), for the session in the active tab. */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { McpOverview, McpServerStatus } from '../../../../../shared/contract';
import { SettingsDialog } from '../../../../../renderer/src/components/settings/SettingsDialog';
import { MCP_EXAMPLE } from '../../../../../renderer/src/components/settings/McpServers';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { MCP_NONE, SETTINGS_NONE, createFakeApi, type FakeApi } from '../../fake-api';
import { memoryStorage, renderFrame, seedSession } from '../../render-frame';

const WORKSPACE = '/home/me/src/project';
const USER_CONFIG = '/home/me/.config/gatehouse/mcp.json';

function server(overrides: Partial<McpServerStatus> & { name: string }): McpServerStatus {
  return {
    scope: 'workspace',
    source: `${WORKSPACE}/.mcp.json`,
    transport: 'stdio',
    target: `npx -y @modelcontextprotocol/server-${overrides.name}`,
    state: 'stopped',
    tools: [],
    confinement: 'Confined like a command, with network',
    confined: true,
    ...overrides,
  };
}

function overview(servers: McpServerStatus[], problems: McpOverview['problems'] = []): McpOverview {
  return { servers, problems, userConfig: USER_CONFIG };
}

/** The settings dialog with session "a" in the active tab, mcp.list answering `first`. */
function settingsFor(first: McpOverview | null, fake: FakeApi = createFakeApi()) {
  const store = createAppStore(memoryStorage());
  store.getState().setSettings({ ...SETTINGS_NONE, home: '/home/me' });
  if (first) {
    seedSession(store, { id: 'a', title: 'fix tests', workspace: WORKSPACE });
    store.getState().openTab('a');
    fake.reply('mcp.list', first);
  }
  store.getState().openDialog('settings');
  return { ...renderFrame(<SettingsDialog />, { store, fake }), fake };
}

const section = () => screen.getByRole('region', { name: 'MCP servers' });
const item = (name: string) =>
  within(section())
    .getAllByRole('listitem')
    .find((li) => li.querySelector('h4')?.textContent === name)!;

describe("Settings' MCP servers", () => {
  it('says to open a session when none is active', () => {
    const { fake } = settingsFor(null);
    expect(section()).toHaveTextContent('Open a session to see its MCP servers.');
    expect(fake.requestsOf('mcp.list')).toEqual([]);
  });

  it("asks mcp.list for the active session when shown, and lists each server's name, scope and target", async () => {
    const { fake } = settingsFor(
      overview([
        server({ name: 'files' }),
        server({
          name: 'docs',
          scope: 'user',
          source: USER_CONFIG,
          transport: 'http',
          target: 'https://mcp.example.com/v1',
          confinement: undefined,
        }),
      ]),
    );
    await screen.findByRole('heading', { name: 'files', level: 4 });
    expect(fake.requestsOf('mcp.list')).toEqual([{ id: 'a' }]);
    expect(item('files')).toHaveTextContent('Workspace · .mcp.json');
    expect(item('files')).toHaveTextContent('runs npx -y @modelcontextprotocol/server-files');
    expect(item('files').querySelector('.mcp-server-target')).toHaveAttribute(
      'title',
      'npx -y @modelcontextprotocol/server-files',
    );
    expect(item('docs')).toHaveTextContent('Yours · ~/.config/gatehouse/mcp.json');
    expect(item('docs')).toHaveTextContent('connects to https://mcp.example.com/v1');
    expect(section()).toHaveTextContent('Of the session “fix tests” in /home/me/src/project');
  });

  it('keeps the headings in order: the dialog, the section, then each server', async () => {
    settingsFor(overview([server({ name: 'files' })]));
    await screen.findByRole('heading', { name: 'files', level: 4 });
    expect(screen.getByRole('heading', { name: 'Settings', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'MCP servers', level: 3 })).toBeInTheDocument();
  });

  it.each([
    [server({ name: 's', state: 'stopped' }), 'Not started yet (starts with the next message)'],
    [server({ name: 's', state: 'asking' }), 'Waiting for your answer'],
    [server({ name: 's', state: 'starting' }), 'Starting…'],
    [server({ name: 's', state: 'not_allowed' }), 'Not allowed (its start card was denied)'],
    [server({ name: 's', state: 'disabled' }), 'Disabled'],
    [server({ name: 's', state: 'failed', error: 'exited with code 1' }), 'Failed: exited with code 1'],
    [server({ name: 's', state: 'ready', tools: ['mcp__s__one'] }), 'Ready · 1 tool'],
  ])('says its state in words: %#', async (status, words) => {
    settingsFor(overview([status]));
    await screen.findByRole('heading', { name: 's', level: 4 });
    expect(item('s').querySelector('.mcp-server-state')).toHaveTextContent(words);
  });

  it('lists a ready server’s tools in a disclosure, by their own names', async () => {
    const tools = Array.from({ length: 12 }, (_, i) => `mcp__files__tool_${i + 1}`);
    settingsFor(overview([server({ name: 'files', state: 'ready', tools })]));
    await screen.findByRole('heading', { name: 'files', level: 4 });
    const details = item('files').querySelector('details')!;
    expect(details.querySelector('summary')).toHaveTextContent('Ready · 12 tools');
    expect(details.open).toBe(false);
    await userEvent.click(within(details).getByText(/Ready · 12 tools/));
    expect(details.open).toBe(true);
    const names = within(details).getAllByRole('listitem');
    expect(names.map((n) => n.textContent)).toEqual(tools.map((t) => t.slice('mcp__files__'.length)));
    expect(names[0]).toHaveAttribute('title', 'mcp__files__tool_1');
  });

  it('shows a failed server’s error and the tail of its stderr as text', async () => {
    const stderrTail = 'Error: missing token\n<b>at</b> main (index.js:3)\n';
    settingsFor(overview([server({ name: 'files', state: 'failed', error: 'exited with code 1', stderrTail })]));
    await screen.findByRole('heading', { name: 'files', level: 4 });
    const stderr = within(item('files')).getByLabelText('stderr of files');
    expect(stderr.tagName).toBe('PRE');
    expect(stderr.textContent).toBe(stderrTail);
    expect(stderr.querySelector('b')).toBeNull();
  });

  it('shows the confinement line, with a warning mark for an unconfined workspace server', async () => {
    settingsFor(
      overview([
        server({ name: 'files' }),
        server({ name: 'raw', confinement: 'Unconfined: no sandbox is set up', confined: false }),
        server({
          name: 'mine',
          scope: 'user',
          confinement: 'Unconfined: your own server, started as you configured it',
          confined: false,
        }),
      ]),
    );
    await screen.findByRole('heading', { name: 'files', level: 4 });
    expect(item('files')).toHaveTextContent('Confined like a command, with network');
    expect(item('raw').querySelector('.mcp-server-confinement-warning')).toHaveTextContent(
      '⚠ Unconfined: no sandbox is set up',
    );
    expect(item('mine').querySelector('.mcp-server-confinement-warning')).toBeNull();
  });

  it('Restart calls mcp.restart and shows the overview it answers', async () => {
    const { fake } = settingsFor(overview([server({ name: 'files', state: 'failed', error: 'crashed' })]));
    fake.reply('mcp.restart', overview([server({ name: 'files', state: 'starting' })]));
    await screen.findByRole('heading', { name: 'files', level: 4 });
    const restart = within(item('files')).getByRole('button', { name: 'Restart' });
    expect(restart).toHaveAccessibleDescription('files');
    await userEvent.click(restart);
    expect(fake.requestsOf('mcp.restart')).toEqual([{ id: 'a', server: 'files' }]);
    await waitFor(() => expect(item('files')).toHaveTextContent('Starting…'));
  });

  it('Disable calls mcp.setEnabled false; a disabled server offers Enable, and no Restart', async () => {
    const { fake } = settingsFor(overview([server({ name: 'files', state: 'ready', tools: [] })]));
    fake.reply('mcp.setEnabled', overview([server({ name: 'files', state: 'disabled' })]));
    await screen.findByRole('heading', { name: 'files', level: 4 });
    await userEvent.click(within(item('files')).getByRole('button', { name: 'Disable' }));
    expect(fake.requestsOf('mcp.setEnabled')).toEqual([{ id: 'a', server: 'files', enabled: false }]);
    const enable = await within(item('files')).findByRole('button', { name: 'Enable' });
    expect(within(item('files')).getByRole('button', { name: 'Restart' })).toBeDisabled();
    fake.reply('mcp.setEnabled', overview([server({ name: 'files', state: 'stopped' })]));
    await userEvent.click(enable);
    expect(fake.requestsOf('mcp.setEnabled')[1]).toEqual({ id: 'a', server: 'files', enabled: true });
    await waitFor(() => expect(item('files')).toHaveTextContent('Not started yet'));
  });

  it('shows the error of a call that fails, and keeps the list', async () => {
    const { fake } = settingsFor(overview([server({ name: 'files', state: 'ready', tools: [] })]));
    fake.fail('mcp.restart', 'no MCP server named "files" in this session\'s config');
    await screen.findByRole('heading', { name: 'files', level: 4 });
    await userEvent.click(within(item('files')).getByRole('button', { name: 'Restart' }));
    expect(await within(item('files')).findByRole('alert')).toHaveTextContent(
      'Could not restart it: no MCP server named "files" in this session\'s config',
    );
    expect(item('files')).toHaveTextContent('Ready · 0 tools');
  });

  it('asks again on mcp.changed for its session, not for another', async () => {
    const { fake } = settingsFor(overview([server({ name: 'files', state: 'starting' })]));
    await screen.findByRole('heading', { name: 'files', level: 4 });
    fake.reply('mcp.list', overview([server({ name: 'files', state: 'ready', tools: ['mcp__files__read'] })]));
    act(() => fake.push({ name: 'mcp.changed', payload: { id: 'other' } }));
    expect(fake.requestsOf('mcp.list')).toHaveLength(1);
    act(() => fake.push({ name: 'mcp.changed', payload: { id: 'a' } }));
    expect(fake.requestsOf('mcp.list')).toHaveLength(2);
    await waitFor(() => expect(item('files')).toHaveTextContent('Ready · 1 tool'));
  });

  it('keeps the newest answer when an older one arrives late', async () => {
    const fake = createFakeApi();
    const pending: ((data: McpOverview) => void)[] = [];
    fake.respond('mcp.list', () => new Promise((resolve) => pending.push((data) => resolve({ ok: true, data }))));
    const store = createAppStore(memoryStorage());
    store.getState().setSettings(SETTINGS_NONE);
    seedSession(store, { id: 'a', workspace: WORKSPACE });
    store.getState().openTab('a');
    renderFrame(<SettingsDialog />, { store, fake });
    await waitFor(() => expect(pending).toHaveLength(1));
    act(() => fake.push({ name: 'mcp.changed', payload: { id: 'a' } }));
    await waitFor(() => expect(pending).toHaveLength(2));
    await act(async () => pending[1]!(overview([server({ name: 'files', state: 'ready', tools: [] })])));
    await act(async () => pending[0]!(overview([server({ name: 'files', state: 'starting' })])));
    expect(item('files')).toHaveTextContent('Ready · 0 tools');
  });

  it('lists config problems above the servers, with their file', async () => {
    settingsFor(
      overview(
        [server({ name: 'files' })],
        [
          { source: `${WORKSPACE}/.mcp.json`, server: 'broken', message: 'server "broken" needs a command or a url' },
          { source: USER_CONFIG, message: 'not valid JSON: Unexpected token } at line 3' },
        ],
      ),
    );
    await screen.findByRole('heading', { name: 'files', level: 4 });
    const problems = within(section()).getByRole('note');
    expect(problems).toHaveTextContent('Problems in the MCP config:');
    const lines = within(problems).getAllByRole('listitem');
    expect(lines[0]).toHaveTextContent('.mcp.json (server broken): server "broken" needs a command or a url');
    expect(lines[1]).toHaveTextContent('~/.config/gatehouse/mcp.json: not valid JSON: Unexpected token } at line 3');
    expect(problems.compareDocumentPosition(item('files')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('with no servers, says where they are configured, with an example', async () => {
    settingsFor(MCP_NONE);
    expect(await within(section()).findByText('This session has no MCP servers.')).toBeInTheDocument();
    expect(section()).toHaveTextContent('.mcp.json at the workspace root');
    expect(section()).toHaveTextContent(`or to ~/.config/gatehouse/mcp.json for servers of your own`);
    expect(section().querySelector('pre')?.textContent).toBe(MCP_EXAMPLE);
    expect(JSON.parse(MCP_EXAMPLE)).toHaveProperty('mcpServers.files.command', 'npx');
  });

  it('says plainly when the list cannot be read', async () => {
    const fake = createFakeApi();
    fake.fail('mcp.list', 'the session is closed');
    const store = createAppStore(memoryStorage());
    store.getState().setSettings(SETTINGS_NONE);
    seedSession(store, { id: 'a', workspace: WORKSPACE });
    store.getState().openTab('a');
    renderFrame(<SettingsDialog />, { store, fake });
    expect(await within(section()).findByRole('alert')).toHaveTextContent(
      'Could not read this session’s MCP servers: the session is closed',
    );
  });
});
