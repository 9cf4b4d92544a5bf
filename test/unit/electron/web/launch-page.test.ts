/**
 * The web token rotates and never reaches a command line (issue 19, item 7): each start of
 * the web host makes a fresh token that is written nowhere (an old `web-token` file is
 * deleted), and what `npm start` hands `xdg-open` is the path of a launch page only this
 * user can read, which carries a one-time code and goes once the code is spent.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LAUNCH_FOLDER, LaunchPages } from '../../../../electron/web/launch-page.js';
import { startWebHost, type RunningWebHost } from '../../../../electron/web/start-web-host.js';
import { OLD_TOKEN_FILE } from '../../../../electron/web/token.js';
import { browserCommand } from '../../../../scripts/open-browser.js';

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => undefined);
  cleanup = [];
});

async function tempRoot(): Promise<{ root: string; dataDir: string; home: string }> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-launch-')));
  cleanup.push(() => fs.rm(root, { recursive: true, force: true }));
  const [dataDir, home, staticDir] = ['data', 'home', 'static'].map((d) => path.join(root, d)) as [
    string,
    string,
    string,
  ];
  await Promise.all([home, staticDir].map((d) => fs.mkdir(d)));
  await fs.writeFile(path.join(staticDir, 'index.html'), '<!doctype html><title>Gatehouse</title>');
  return { root, dataDir, home };
}

async function start(dataDir: string, home: string): Promise<RunningWebHost> {
  const host = await startWebHost({
    dataDir,
    home,
    port: 0,
    env: { PATH: process.env.PATH, HOME: home },
    staticDir: path.join(path.dirname(dataDir), 'static'),
  });
  cleanup.push(() => host.close());
  return host;
}

const tokenOf = (url: string) => new URLSearchParams(new URL(url).hash.slice(1)).get('token') ?? '';

/** Every file under `dir`, with its bytes. */
async function filesUnder(dir: string): Promise<{ file: string; text: string }[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  return Promise.all(files.map(async (file) => ({ file, text: await fs.readFile(file, 'utf8') })));
}

function get(url: string): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      })
      .on('error', reject);
  });
}

/** The one-time URL a launch page sends the browser to. */
function refreshTarget(html: string): string {
  const match = /http-equiv="refresh" content="0; url=([^"]+)"/.exec(html);
  if (!match) throw new Error(`no refresh in ${html}`);
  return match[1]!.replace(/&#38;/g, '&');
}

const mode = async (p: string) => (await fs.stat(p)).mode & 0o777;

describe('the web token', () => {
  it('is new at every start on the same data folder, written nowhere, and an old token file is deleted', async () => {
    const { dataDir, home } = await tempRoot();
    await fs.mkdir(dataDir);
    await fs.writeFile(path.join(dataDir, OLD_TOKEN_FILE), `${'o'.repeat(43)}\n`);

    const first = await start(dataDir, home);
    const a = tokenOf(first.url);
    await expect(fs.access(path.join(dataDir, OLD_TOKEN_FILE))).rejects.toThrow();
    for (const { file, text } of await filesUnder(dataDir)) expect(text, file).not.toContain(a);
    await first.close();

    const second = await start(dataDir, home);
    const b = tokenOf(second.url);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b).not.toBe(a);
    for (const { file, text } of await filesUnder(dataDir)) expect(text, file).not.toContain(b);
  });
});

describe("npm start's launch page", () => {
  it('is all the browser command line holds: no token, no code; the page is 0600 in a 0700 folder', async () => {
    const { dataDir, home } = await tempRoot();
    const host = await start(dataDir, home);
    const token = tokenOf(host.url);
    const page = await host.launchPage();

    const html = await fs.readFile(page, 'utf8');
    const code = new URL(refreshTarget(html)).searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(html).not.toContain(token);
    expect(path.dirname(page)).toBe(path.join(dataDir, LAUNCH_FOLDER));
    expect(await mode(page)).toBe(0o600);
    expect(await mode(path.dirname(page))).toBe(0o700);

    for (const [platform, env] of [
      ['linux', { DISPLAY: ':0' }],
      ['darwin', {}],
      ['win32', {}],
    ] as const) {
      const how = browserCommand(platform, env)!;
      const argv = [how.command, ...how.args(pathToFileURL(page).href)].join(' ');
      expect(argv).not.toContain(token);
      expect(argv).not.toContain(code);
      expect(argv).not.toContain('code=');
      expect(argv).toContain(path.basename(page));
    }
  });

  it('sends the browser on once, to the token in the fragment, and is deleted as its code is spent', async () => {
    const { dataDir, home } = await tempRoot();
    const host = await start(dataDir, home);
    const page = await host.launchPage();
    const target = refreshTarget(await fs.readFile(page, 'utf8'));

    const first = await get(target);
    expect(first).toMatchObject({ status: 303, location: `/#token=${tokenOf(host.url)}` });
    await expect(fs.access(page)).rejects.toThrow();
    expect((await get(target)).status).toBe(401);
  });

  it('names the session `npm start -- FOLDER` opened', async () => {
    const { root, dataDir, home } = await tempRoot();
    const folder = path.join(root, 'project');
    await fs.mkdir(folder);
    const host = await startWebHost({
      dataDir,
      home,
      port: 0,
      openFolder: folder,
      env: { PATH: process.env.PATH, HOME: home },
      staticDir: path.join(root, 'static'),
    });
    cleanup.push(() => host.close());
    const target = refreshTarget(await fs.readFile(await host.launchPage(), 'utf8'));
    expect((await get(target)).location).toBe(`/#token=${tokenOf(host.url)}&session=${host.startSession}`);
  });

  it('is removed when the host stops, and a page a crashed run left is removed at the next start', async () => {
    const { dataDir, home } = await tempRoot();
    const host = await start(dataDir, home);
    const page = await host.launchPage();
    await host.close();
    await expect(fs.access(page)).rejects.toThrow();

    const left = path.join(dataDir, LAUNCH_FOLDER, 'open-left-behind.html');
    await fs.mkdir(path.dirname(left), { recursive: true });
    await fs.writeFile(left, 'old');
    await start(dataDir, home);
    await expect(fs.access(left)).rejects.toThrow();
  });
});

describe('LaunchPages', () => {
  it('removes a page whose code was never spent once its lifetime is over', async () => {
    const { dataDir } = await tempRoot();
    const pages = new LaunchPages(dataDir, 50);
    const page = await pages.write(() => 'http://127.0.0.1:1/?code=c');
    await fs.access(page);
    await expect
      .poll(
        () =>
          fs.access(page).then(
            () => 'there',
            () => 'gone',
          ),
        { timeout: 5_000 },
      )
      .toBe('gone');
  });

  it('makes the folder private even where it was made wider before, and never writes through a link', async () => {
    const { root, dataDir } = await tempRoot();
    const folder = path.join(dataDir, LAUNCH_FOLDER);
    await fs.mkdir(folder, { recursive: true, mode: 0o755 });
    await fs.chmod(folder, 0o755);
    const pages = new LaunchPages(dataDir);
    cleanup.push(async () => pages.close());
    await pages.write(() => 'http://127.0.0.1:1/?code=c');
    expect(await mode(folder)).toBe(0o700);

    await fs.rm(folder, { recursive: true });
    await fs.mkdir(path.join(root, 'elsewhere'));
    await fs.symlink(path.join(root, 'elsewhere'), folder);
    await expect(pages.write(() => 'http://127.0.0.1:1/?code=c')).rejects.toThrow(/is not a folder/);
    expect(await fs.readdir(path.join(root, 'elsewhere'))).toEqual([]);
  });

  it('escapes the URL it is given', async () => {
    const { dataDir } = await tempRoot();
    const pages = new LaunchPages(dataDir);
    cleanup.push(async () => pages.close());
    const html = await fs.readFile(await pages.write(() => 'http://127.0.0.1:1/?a="><script>x</script>'), 'utf8');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#34;&#62;&#60;script&#62;');
  });
});
