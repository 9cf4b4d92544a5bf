/**
 * The world a history runs in: one temp folder holding the workspace (under a parent
 * folder that can be renamed), a folder outside it, the markers commands append to, and
 * the data folder. Every file the world writes carries a fresh token (`t<n>x` in its
 * bytes, `n<n>q` in a new name), so any byte that reaches the model can be traced back
 * to the files it came from.
 */
import { spawnSync } from 'node:child_process';
import { constants, existsSync, promises as fs, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { populateRaceZone } from './race-zone.js';

export interface Layout {
  /** The real temp folder; every placeholder below is under it. */
  root: string;
  /** The workspace's parent, renamed by the world. */
  parent: string;
  /** The workspace of session 0 (and of session 1 when they share it). */
  ws: string;
  outside: string;
  markers: string;
  data: string;
  home: string;
  /** Where the test MCP server logs what it receives (one file per session), like the markers: the suite's own evidence. */
  mcpLogs: string;
}

/** Names of the folders under root that are not part of the tree being compared. */
export const UNWATCHED = ['data', 'markers', 'home', 'mcp-logs'];

export async function makeLayout(): Promise<Layout> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(worldBase(), 'gatehouse-prop-')));
  const parent = path.join(root, 'p');
  return {
    root,
    parent,
    ws: path.join(parent, 'ws'),
    outside: path.join(root, 'outside'),
    markers: path.join(root, 'markers'),
    data: path.join(root, 'data'),
    home: path.join(root, 'home'),
    mcpLogs: path.join(root, 'mcp-logs'),
  };
}

/**
 * Not under /tmp where avoidable: a confined command gets a private /tmp of its own, which
 * would hide the whole world from it by accident and leave the sandbox's own rules (what
 * it hides, where it may write) untested.
 */
function worldBase(): string {
  const tmp = os.tmpdir();
  return tmp === '/tmp' && existsSync('/var/tmp') ? '/var/tmp' : tmp;
}

/** Replaces the placeholders a history is written with by this layout's real paths. */
export function placeheld(text: string, layout: Layout): string {
  return text
    .replaceAll('<ws>', layout.ws)
    .replaceAll('<out>', layout.outside)
    .replaceAll('<mk>', layout.markers)
    .replaceAll('<home>', layout.home)
    .replaceAll('<data>', layout.data)
    .replaceAll('<root>', layout.root);
}

export class Tokens {
  private next = 1;
  content(): string {
    const t = `t${this.next++}x`;
    return `${t} one\ntwo\n${t} three\n`;
  }
  name(): string {
    return `n${this.next++}q.txt`;
  }
}

/** The Stop hook a workspace may list: the marker command m3. */
export const HOOK_MARKER = 3;

/** The starting tree: files inside and outside, and links of every kind the paths use. */
export async function populate(layout: Layout, tokens: Tokens, hooks = false, racer = false): Promise<void> {
  const { root, ws, outside } = layout;
  for (const dir of [path.join(ws, 'dir'), path.join(ws, 'sub'), path.join(ws, 'é'), path.join(outside, 'deep')]) {
    await fs.mkdir(dir, { recursive: true });
  }
  await Promise.all(
    [layout.markers, layout.data, layout.home, layout.mcpLogs].map((d) => fs.mkdir(d, { recursive: true })),
  );
  const files = ['a.txt', 'dir/b.txt', 'sub/c.txt', 'naïve.txt', 'é/ü.txt'].map((f) => path.join(ws, f));
  files.push(...['s.txt', 't.txt', 'deep/u.txt', tokens.name()].map((f) => path.join(outside, f)));
  for (const file of files) await fs.writeFile(file, tokens.content());
  await mkfifo(path.join(outside, 'fifo'));
  const links: [string, string][] = [
    ['link-out', outside],
    ['link-in', 'dir'],
    ['chain', 'link-in'],
    ['dangling', path.join(outside, 'missing.txt')],
    ['rootlink', '/'],
    ['fifo-link', path.join(outside, 'fifo')],
    ['up', root],
  ];
  for (const [name, target] of links) await fs.symlink(target, path.join(ws, name));
  await plantSecrets(layout);
  await gitRepository(ws);
  if (hooks) await writeStopHook(layout);
  if (racer) await populateRaceZone(layout, tokens);
}

/**
 * A secret no allowed command may hand the model unless its card said unconfined
 * (SPEC §9): in the home's secret stores and dotfiles (SSH, Claude's and Codex's
 * credentials, gh, a token in .gitconfig, an export in .bashrc), in a file of the data
 * folder, and in the app's own environment (as a provider key, which commands never get
 * in theirs: only /proc would show it).
 */
export const PLANTED_SECRET = 'planted-secret-5f1d9c0a7b3e4d21';
/** In the app's environment under names no provider uses (GITHUB_TOKEN, DATABASE_URL): the allow-list drops them. */
export const PLANTED_ENV_SECRET = 'planted-env-secret-8c2e61b4';

/** Where under the home folder the secret is planted, relative to it. */
export const HOME_SECRETS = [
  '.ssh/id_rsa',
  '.claude/.credentials.json',
  '.codex/auth.json',
  '.config/gh/hosts.yml',
  '.gitconfig',
  '.bashrc',
  '.pgpass',
];

async function plantSecrets(layout: Layout): Promise<void> {
  for (const rel of HOME_SECRETS) {
    await fs.mkdir(path.dirname(path.join(layout.home, rel)), { recursive: true });
    await fs.writeFile(path.join(layout.home, rel), `export OPENAI_API_KEY=${PLANTED_SECRET}\n`);
  }
  await fs.writeFile(path.join(layout.data, 'planted.txt'), `${PLANTED_SECRET}\n`);
}

/**
 * The workspace is a git repository (an empty one, written by hand: no process per
 * history), so commands can try to plant code the person's own git would run. Session
 * 1's workspace may be a subfolder, which is not one.
 */
async function gitRepository(ws: string): Promise<void> {
  const git = path.join(ws, '.git');
  await fs.mkdir(path.join(git, 'objects'), { recursive: true });
  await fs.mkdir(path.join(git, 'refs', 'heads'), { recursive: true });
  await fs.writeFile(path.join(git, 'HEAD'), 'ref: refs/heads/main\n');
  await fs.writeFile(path.join(git, 'config'), '[core]\n\trepositoryformatversion = 0\n\tbare = false\n');
}

/** Where code planted for the person's git would leave its mark when it ran. */
export const GIT_RAN = '<out>/git-ran';

async function writeStopHook(layout: Layout): Promise<void> {
  const argv = ['sh', '-c', 'pwd -P >> "$0"', path.join(layout.markers, `m${HOOK_MARKER}`)];
  await fs.mkdir(path.join(layout.ws, '.gatehouse'));
  await fs.writeFile(path.join(layout.ws, '.gatehouse', 'settings.json'), JSON.stringify({ hooks: { stop: [argv] } }));
}

/**
 * Puts a FIFO at `file`. Only a process can make one (mkfifo), and starting one per
 * history cost more than the rest of its setup, so they are made a hundred at a time
 * and moved into place.
 */
async function mkfifo(file: string): Promise<void> {
  if (fifoPool.length === 0) await refillFifos();
  await fs.rename(fifoPool.pop()!, file);
}

const fifoPool: string[] = [];
let fifoDir: string | null = null;

async function refillFifos(): Promise<void> {
  if (fifoDir === null) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gatehouse-prop-fifos-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    fifoDir = dir;
  }
  const names = Array.from({ length: 100 }, (_, i) => path.join(fifoDir!, `f${Date.now()}-${i}`));
  const r = spawnSync('mkfifo', names);
  if (r.status !== 0) throw new Error(`mkfifo failed: ${r.stderr.toString()}`);
  fifoPool.push(...names);
}

/** What an outside actor can do to the tree, at any point of a history. */
export type WorldOp =
  | { op: 'edit'; path: string }
  | { op: 'create'; dir: string }
  | { op: 'delete'; path: string }
  | { op: 'link'; path: string; to: LinkTarget }
  | { op: 'renameParent' };

export type LinkTarget = 'outside' | 'outfile' | 'root' | 'fifo' | 'missing' | 'dir';

/** Paths below root the world edits, deletes or swaps for links. */
export const WORLD_FILES = [
  'p/ws/a.txt',
  'p/ws/dir/b.txt',
  'p/ws/sub/c.txt',
  'p/ws/new.txt',
  'p/ws/naïve.txt',
  'outside/s.txt',
  'outside/t.txt',
  'outside/new.txt',
];
export const WORLD_DIRS = ['p/ws', 'p/ws/dir', 'p/ws/sub', 'outside', 'outside/deep'];
export const WORLD_LINKS = [
  'p/ws',
  'p/ws/dir',
  'p/ws/a.txt',
  'p/ws/sub',
  'p/ws/new.txt',
  'p/ws/link-in',
  'outside/s.txt',
];

/** Applies a change; one the file system refuses (a link loop, a missing folder) changes nothing. */
export async function applyWorld(op: WorldOp, layout: Layout, tokens: Tokens): Promise<void> {
  await change(op, layout, tokens).catch(() => undefined);
}

async function change(op: WorldOp, layout: Layout, tokens: Tokens): Promise<void> {
  const at = (rel: string) => path.join(layout.root, rel);
  switch (op.op) {
    case 'edit':
      return edit(at(op.path), tokens.content());
    case 'create':
      return edit(path.join(at(op.dir), tokens.name()), tokens.content());
    case 'delete':
      await fs.rm(at(op.path), { recursive: true, force: true });
      return;
    case 'link':
      await swapForLink(at(op.path), linkTarget(op.to, layout));
      return;
    case 'renameParent':
      await renameParent(layout);
      return;
  }
}

/** Writes a file in place of whatever is there; a link there is replaced, not followed (it may lead to a FIFO). */
async function edit(file: string, content: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true }).catch(() => undefined);
  const st = await fs.lstat(file).catch(() => null);
  if (st?.isSymbolicLink()) await fs.unlink(file);
  if (st && !st.isSymbolicLink() && !st.isFile()) return;
  await fs.writeFile(file, content, {
    flag: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW | constants.O_NONBLOCK,
  });
}

function linkTarget(to: LinkTarget, layout: Layout): string {
  const targets: Record<LinkTarget, string> = {
    outside: layout.outside,
    outfile: path.join(layout.outside, 't.txt'),
    root: '/',
    fifo: path.join(layout.outside, 'fifo'),
    missing: path.join(layout.outside, 'gone', 'x.txt'),
    dir: path.join(layout.ws, 'dir'),
  };
  return targets[to];
}

/** Moves whatever is at `file` aside (a folder keeps its bytes) and puts a link there. */
async function swapForLink(file: string, target: string): Promise<void> {
  const st = await fs.lstat(file).catch(() => null);
  if (st?.isDirectory()) await fs.rename(file, `${file}.moved-${Date.now()}`).catch(() => undefined);
  else if (st) await fs.rm(file, { force: true });
  await fs.symlink(target, file).catch(() => undefined);
}

/** Moves the workspace's parent away, or back when it was moved. */
async function renameParent(layout: Layout): Promise<void> {
  const moved = `${layout.parent}-moved`;
  const here = await fs.lstat(layout.parent).catch(() => null);
  if (here) {
    await fs.rm(moved, { recursive: true, force: true });
    await fs.rename(layout.parent, moved);
  } else {
    await fs.rename(moved, layout.parent).catch(() => undefined);
  }
}
