/**
 * The shell's lifecycle against the fake electron module and a real core: the single
 * instance, a folder on the command line or from a second launch, the menu's Open
 * Folder…, and a clean shutdown before the process quits.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../../shared/contract.js';
import { APP_START_URL } from '../../../../electron/main/renderer-origin.js';
import { startFakeModel } from '../../../fake-model/server.js';
import { FakeEvent } from './fake-electron.js';
import { startShell, type Shell } from './shell-harness.js';
import { pidAlive } from '../../../../electron/core/process/pid-alive.js';
import { hostPidOf } from '../core/sandbox/host-pids.js';

let shell: Shell | undefined;
const folders: string[] = [];
afterEach(async () => {
  await shell?.close();
  shell = undefined;
  await Promise.all(folders.splice(0).map((f) => fs.rm(f, { recursive: true, force: true })));
});

async function tempFolder(): Promise<string> {
  const folder = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-folder-')));
  folders.push(folder);
  return folder;
}

describe('start-up', () => {
  it('opens one hardened window on the app scheme and serves the built renderer', async () => {
    shell = await startShell();
    expect(shell.fake.windows).toHaveLength(1);
    expect(shell.window().loaded).toEqual([APP_START_URL]);
    expect(shell.fake.protocolHandlers.has('gatehouse')).toBe(true);
    expect(shell.fake.privilegedSchemes).toEqual([
      { scheme: 'gatehouse', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
    expect(shell.fake.applicationMenu()).not.toBeNull();
    expect(shell.fake.trays).toHaveLength(1);
  });

  it('quits at once when another instance holds the lock, opening nothing', async () => {
    shell = await startShell({ lock: false });
    expect(shell.app).toBeNull();
    expect(shell.fake.app.calls).toEqual(['quit']);
    expect(shell.fake.windows).toHaveLength(0);
    expect(shell.fake.handlers.size).toBe(0);
  });

  it('opens a session on the folder named on the command line, and shows its tab', async () => {
    const folder = await tempFolder();
    shell = await startShell({ argv: ['/opt/Gatehouse/gatehouse', folder], isPackaged: true });
    const list = (await shell.call('sessions.list', {})) as { ok: true; data: SessionSummary[] };
    expect(list.data.map((s) => s.workspace)).toEqual([folder]);
    expect(shell.pushes()).toContainEqual({ name: 'app.focusSession', payload: { id: list.data[0]!.id } });
  });

  it('opens no session on its own folder when a switch comes before the app path', async () => {
    shell = await startShell({ argv: ['/usr/bin/electron', '--no-sandbox', '.'], cwd: '/work/repo' });
    expect(((await shell.call('sessions.list', {})) as { data: unknown[] }).data).toEqual([]);
    expect(shell.fake.messageBoxes).toEqual([]);
  });

  it('asks for that tab again once the page first reports, in case it loaded before it listened', async () => {
    const folder = await tempFolder();
    shell = await startShell({ argv: ['/opt/Gatehouse/gatehouse', folder], isPackaged: true });
    const focusPushes = () => shell!.pushes().filter((p) => p.name === 'app.focusSession');
    expect(focusPushes()).toHaveLength(1);
    await shell.call('app.activeSession', { id: null, visible: true });
    await until(async () => focusPushes().length === 2);
    expect(focusPushes()[1]).toEqual(focusPushes()[0]);
    await shell.call('app.activeSession', { id: null, visible: true });
    await new Promise((r) => setTimeout(r, 20));
    expect(focusPushes()).toHaveLength(2);
  });
});

describe('a second launch', () => {
  it('with a folder opens it in the running app and brings the window forward', async () => {
    shell = await startShell();
    const folder = await shell.workspace('second');
    shell.window().minimized = true;
    shell.fake.app.events.emit(
      'second-instance',
      {},
      ['/usr/bin/electron', '.', '--some-switch', 'second'],
      shell.root,
    );
    await until(async () => ((await shell!.call('sessions.list', {})) as { data: unknown[] }).data.length === 1);
    const list = (await shell.call('sessions.list', {})) as { data: SessionSummary[] };
    expect(list.data[0]!.workspace).toBe(folder);
    expect(shell.window().restored).toBeGreaterThan(0);
    expect(shell.window().focused).toBeGreaterThan(0);
    await until(async () => shell!.pushes().some((p) => p.name === 'app.focusSession'));
  });

  it("reads the folder from Chromium's argv, which moves every switch before the words", async () => {
    shell = await startShell();
    const folder = await shell.workspace('second');
    shell.fake.app.events.emit(
      'second-instance',
      {},
      ['/usr/bin/electron', '--some-switch', '.', 'second'],
      shell.root,
    );
    await until(async () => ((await shell!.call('sessions.list', {})) as { data: unknown[] }).data.length === 1);
    const list = (await shell.call('sessions.list', {})) as { data: SessionSummary[] };
    expect(list.data.map((s) => s.workspace)).toEqual([folder]);
  });

  it('without a folder only brings the window forward', async () => {
    shell = await startShell();
    shell.fake.app.events.emit('second-instance', {}, ['/usr/bin/electron', '.'], shell.root);
    expect(shell.window().focused).toBe(1);
    const list = (await shell.call('sessions.list', {})) as { data: unknown[] };
    expect(list.data).toEqual([]);
  });
});

describe('File > Open Folder…', () => {
  it('asks the OS for a folder and opens a session on it', async () => {
    const folder = await tempFolder();
    shell = await startShell({ openDialogPaths: [folder] });
    shell.fake.applicationMenu()!.click('File', 'Open Folder…');
    await until(async () => shell!.pushes().some((p) => p.name === 'app.focusSession'));
    expect(shell.fake.openDialogs[0]!.properties).toContain('openDirectory');
    const list = (await shell.call('sessions.list', {})) as { data: SessionSummary[] };
    expect(list.data.map((s) => s.workspace)).toEqual([folder]);
  });

  it('says why a folder cannot be opened, and opens nothing', async () => {
    shell = await startShell({ openDialogPaths: ['/no/such/folder/anywhere'] });
    shell.fake.applicationMenu()!.click('File', 'Open Folder…');
    await until(async () => shell!.fake.messageBoxes.length === 1);
    expect(shell.fake.messageBoxes[0]!.message).toContain('/no/such/folder/anywhere');
    expect(((await shell.call('sessions.list', {})) as { data: unknown[] }).data).toEqual([]);
  });
});

describe('quitting', () => {
  it('holds the quit until the core has closed (turns stopped, logs flushed), then quits', async () => {
    shell = await startShell();
    const event = new FakeEvent();
    shell.fake.app.events.emit('before-quit', event);
    expect(event.prevented).toBe(true);
    await until(async () => shell!.fake.app.calls.includes('quit'));
    expect(shell.fake.trays[0]!.destroyed).toBe(true);
    // The core is closed: a new session cannot be created any more.
    const again = new FakeEvent();
    shell.fake.app.events.emit('before-quit', again);
    expect(again.prevented).toBe(false);
  });

  it("kills a running command's whole process group and leaves a whole session log before quitting", async () => {
    const model = await startFakeModel();
    try {
      const ws = await tempFolder();
      shell = await startShell();
      await shell.call('settings.set', {
        model: { provider: 'openai-compatible', modelId: 'm', baseURL: model.openaiBaseURL },
      });
      model.enqueue({
        toolCalls: [{ name: 'run', input: { argv: ['sh', '-c', 'sleep 60 & echo $! > child.pid; wait'] } }],
      });
      const id = ((await shell.call('sessions.open', { workspace: ws })) as { data: SessionSummary }).data.id;
      await shell.call('session.send', { id, text: 'start it' });
      let cardId: string | undefined;
      await until(async () => {
        const reply = (await shell!.call('session.events', { id, sinceSeq: 0 })) as {
          data: { events: { type: string; cardId?: string }[] };
        };
        cardId = reply.data.events.find((e) => e.type === 'card')?.cardId;
        return cardId !== undefined;
      });
      await shell.call('card.answer', { id, cardId, answer: 'allow_once' });
      await until(async () => (await fs.readFile(path.join(ws, 'child.pid'), 'utf8').catch(() => '')).trim() !== '');
      // The command runs confined: $! is its pid inside the sandbox's PID namespace. The shell
      // writes it as soon as it forks, and under load the child may not run `sleep` yet: wait
      // for it, rather than take the inner pid for a host one (some other process, alive forever).
      const inner = Number((await fs.readFile(path.join(ws, 'child.pid'), 'utf8')).trim());
      let pid: number | null = null;
      await until(async () => (pid = await hostPidOf(inner, 'sleep\u000060')) !== null);
      expect(pidAlive(pid!)).toBe(true);

      shell.fake.app.events.emit('before-quit', new FakeEvent());
      await until(async () => shell!.fake.app.calls.includes('quit'), 15_000);
      await until(async () => !pidAlive(pid!), 5_000);
      const log = await fs.readFile(path.join(shell.root, 'data', 'sessions', id, 'events.jsonl'), 'utf8');
      // Whole lines only, the answer among them: what a restart resumes the turn from.
      expect(log.endsWith('\n')).toBe(true);
      const types = log
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { type: string }).type);
      expect(types).toContain('card_answer');
    } finally {
      await model.close();
    }
  });

  it('remembers the window size and place when it closes', async () => {
    shell = await startShell();
    shell.window().emit('close');
    await until(async () => {
      try {
        const saved = JSON.parse(await fs.readFile(path.join(shell!.root, 'data', 'window-state.json'), 'utf8'));
        return saved.width === 1280;
      } catch {
        return false;
      }
    });
  });
});

async function until(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('GATEHOUSE_HOME', () => {
  it('moves the profile (and so the single-instance lock) and the data folder there', async () => {
    const home = await tempFolder();
    shell = await startShell({ env: { GATEHOUSE_HOME: home } });
    expect(shell.fake.app.getPath('userData')).toBe(home);
    expect(shell.coreOptions[0]!.dataDir).toBe(home);
  });
});

describe('GATEHOUSE_AGENT_MODEL_ENDPOINT', () => {
  it('points external agents at a model server on loopback', async () => {
    shell = await startShell({ env: { GATEHOUSE_AGENT_MODEL_ENDPOINT: 'http://127.0.0.1:4100' } });
    const agentModel = shell.coreOptions[0]!.agentModel!;
    expect(agentModel({ id: 'claude-code', label: 'Claude Code', version: '1' })).toEqual({
      endpoint: { port: 4100 },
      baseUrlVariable: 'ANTHROPIC_BASE_URL',
    });
  });

  it('stops the app in words when it is not on loopback, before any core starts', async () => {
    await expect(startShell({ env: { GATEHOUSE_AGENT_MODEL_ENDPOINT: 'http://model.example:4100' } })).rejects.toThrow(
      'GATEHOUSE_AGENT_MODEL_ENDPOINT: the agents’ model endpoint "http://model.example:4100" is not on this machine’s loopback',
    );
  });

  it('leaves agents on their own hosts when unset', async () => {
    shell = await startShell();
    expect(shell.coreOptions[0]!.agentModel).toBeUndefined();
  });
});
