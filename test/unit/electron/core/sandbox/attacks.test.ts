/**
 * Issue 19's security review, each attack replayed through the run tool with the real
 * bubblewrap, as an allowed confined command. The git ones end as the review did: the
 * person's own, unconfined `git status` and `git commit`, which must run nothing planted.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../../../../electron/core/paths/workspace.js';
import { BwrapSandbox } from '../../../../../electron/core/sandbox/bwrap-sandbox.js';
import { runToEnd } from '../../../../../electron/core/process/command-run.js';
import { commandEnv } from '../../../../../electron/core/tools/command-env.js';
import { runTool } from '../../../../../electron/core/tools/run.js';
import { parseToolArgs } from '../../../../../electron/core/tools/tool-args.js';
import type { CommandPlan, ToolContext, ToolResult } from '../../../../../electron/core/tools/tool-def.js';

const exec = promisify(execFile);

let root: string;
let home: string;
let dataDir: string;
let ws: string;
/** Where planted code would leave its mark, outside everything the sandbox may write. */
let pwned: string;

beforeEach(async () => {
  // Under /var/tmp: a confined command has a private /tmp.
  root = await fs.realpath(await fs.mkdtemp(path.join('/var/tmp', 'gatehouse-attacks-')));
  home = path.join(root, 'home');
  dataDir = path.join(home, '.config', 'Gatehouse');
  ws = path.join(home, 'src', 'app');
  pwned = path.join(root, 'PWNED');
  await fs.mkdir(path.join(dataDir, 'sessions'), { recursive: true });
  await fs.mkdir(ws, { recursive: true });
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function contextFor(env: NodeJS.ProcessEnv = process.env, extraShown: string[] = []): Promise<ToolContext> {
  const sandbox = new BwrapSandbox({ dataDir, home, env: process.env, extraShown: () => extraShown });
  return Workspace.open(ws, { dataDir }).then((workspace) => ({
    workspace,
    commandEnv: commandEnv(env),
    sandbox: { sandbox, refuseUnconfined: () => false },
  }));
}

async function run(raw: Record<string, unknown>, ctx?: ToolContext): Promise<ToolResult & { ok: true }> {
  const c = ctx ?? (await contextFor());
  const plan = (await runTool.plan(parseToolArgs(runTool, raw), c)) as CommandPlan;
  const result = await runTool.execute(plan, c, {});
  if (!result.ok) throw new Error(`expected a result, got: ${result.error}`);
  return result;
}

const sh = (script: string, extra: Record<string, unknown> = {}) => ({ argv: ['sh', '-c', script], ...extra });

/** The person's own git, unconfined, in the workspace, with a plain environment. */
async function personsGit(args: string[], cwd = ws): Promise<string> {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    GIT_AUTHOR_NAME: 'Person',
    GIT_AUTHOR_EMAIL: 'p@example.invalid',
    GIT_COMMITTER_NAME: 'Person',
    GIT_COMMITTER_EMAIL: 'p@example.invalid',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  const { stdout, stderr } = await exec('git', args, { cwd, env });
  return stdout + stderr;
}

async function gitRepo(at = ws): Promise<void> {
  await personsGit(['init', '-q', '-b', 'main'], at);
  await fs.writeFile(path.join(at, 'a.txt'), 'a\n');
  await personsGit(['add', 'a.txt'], at);
  await personsGit(['commit', '-qm', 'first'], at);
}

/** Ends each git attack as the review did: the person's git status and commit, then no mark. */
async function expectPersonsGitRunsNothingPlanted(): Promise<void> {
  await personsGit(['status']);
  await fs.writeFile(path.join(ws, 'b.txt'), 'b\n');
  await personsGit(['add', 'b.txt']);
  await personsGit(['commit', '-qm', 'second']);
  await expect(fs.access(pwned)).rejects.toThrow();
}

/** A submodule at `sub`, checked out, its repository kept in .git/modules/sub. */
async function withSubmodule(): Promise<void> {
  const upstream = path.join(root, 'upstream');
  await fs.mkdir(upstream);
  await gitRepo(upstream);
  await personsGit(['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', upstream, 'sub']);
  await personsGit(['commit', '-qm', 'with a submodule']);
}

const plantFsmonitor = (dir: string) =>
  `git -C ${dir} config core.fsmonitor "touch ${pwned}; false" && git -C ${dir} config core.hooksPath ${dir}/h`;

describe("a confined command cannot plant code the person's own git runs", () => {
  beforeEach(() => gitRepo());

  it('by moving .git away and making a new one (a mount point cannot be renamed)', async () => {
    const result = await run(sh(`mv .git .git-old && git init -q . && ${plantFsmonitor('.')}`));
    expect(result.details).not.toMatchObject({ exitCode: 0 });
    await expect(fs.access(path.join(ws, '.git-old'))).rejects.toThrow();
    await expectPersonsGitRunsNothingPlanted();
  });

  it('by pointing .git/commondir at a copy with its own config', async () => {
    const result = await run(
      sh(`cp -r .git ../copy && ${plantFsmonitor('../copy')}; echo ../../copy > .git/commondir`),
    );
    expect(result.output.split('\n')[0]).toMatch(/\.git is read-only; ask with git: true/);
    await expect(fs.access(path.join(ws, '.git', 'commondir'))).rejects.toThrow();
    await expectPersonsGitRunsNothingPlanted();
  });

  it("by rewriting a worktree's .git file to a repository of its own", async () => {
    // The workspace is a linked worktree of a repository elsewhere.
    await fs.rm(path.join(ws, '.git'), { recursive: true });
    await fs.rm(path.join(ws, 'a.txt'));
    const main = path.join(root, 'main');
    await fs.mkdir(main);
    await gitRepo(main);
    await fs.rmdir(ws);
    await personsGit(['worktree', 'add', '-q', '-b', 'side', ws], main);
    const result = await run(sh(`git init -q .g && ${plantFsmonitor('.g')} && echo 'gitdir: ./.g' > .git`));
    expect(result.details).not.toMatchObject({ exitCode: 0 });
    expect(await fs.readFile(path.join(ws, '.git'), 'utf8')).toMatch(/^gitdir: .*main\/\.git\/worktrees\//);
    await expectPersonsGitRunsNothingPlanted();
  });

  it('by a hook in the folder core.hooksPath names (husky)', async () => {
    await fs.mkdir(path.join(ws, '.husky'));
    await personsGit(['config', 'core.hooksPath', '.husky']);
    const hook = `#!/bin/sh\ntouch ${pwned}\n`;
    const result = await run(sh(`printf '${hook}' > .husky/pre-commit && chmod +x .husky/pre-commit`));
    expect(result.details).not.toMatchObject({ exitCode: 0 });
    expect(result.output.split('\n')[0]).toMatch(/^blocked by the sandbox: .*\.husky stays read-only/);
    await expectPersonsGitRunsNothingPlanted();
  });

  it('by adding a nested repository as a gitlink through .git/index', async () => {
    const result = await run(
      sh(
        `git init -q sub && ${plantFsmonitor('sub')} && git -C sub -c user.name=a -c user.email=a@example.invalid commit -q --allow-empty -m x && git update-index --add --cacheinfo 160000,$(git -C sub rev-parse HEAD),sub`,
      ),
    );
    expect(result.details).not.toMatchObject({ exitCode: 0 });
    expect(await personsGit(['ls-files', '--stage'])).not.toContain('160000');
    await expectPersonsGitRunsNothingPlanted();
  });

  it("by swapping a submodule's .git for a repository of its own (git status goes into submodules)", async () => {
    await withSubmodule();
    const swap = `rm sub/.git && cp -r .git/modules/sub sub/.git && git -C sub config --unset core.worktree; ${plantFsmonitor('sub')}`;
    const result = await run(sh(swap));
    expect(result.details).not.toMatchObject({ exitCode: 0 });
    expect(await fs.readFile(path.join(ws, 'sub', '.git'), 'utf8')).toBe('gitdir: ../.git/modules/sub\n');
    // Nor with git: true, which makes .git writable but not the submodule's .git, hooks or config.
    const withGit = await run(
      sh(`${swap}; git -C .git/modules/sub config core.fsmonitor "touch ${pwned}; false"`, { git: true }),
    );
    expect(withGit.details).not.toMatchObject({ exitCode: 0 });
    expect(await fs.readFile(path.join(ws, 'sub', '.git'), 'utf8')).toBe('gitdir: ../.git/modules/sub\n');
    await expectPersonsGitRunsNothingPlanted();
  });

  it('by making a repository where a submodule is not checked out, which leaves nothing behind', async () => {
    await withSubmodule();
    await personsGit(['submodule', 'deinit', '-q', '--force', 'sub']);
    const result = await run(sh(`git init -q sub && ${plantFsmonitor('sub')}`));
    expect(result.details).not.toMatchObject({ exitCode: 0 });
    expect(await fs.readdir(path.join(ws, 'sub'))).toEqual([]);
    // Nor when the person removed its folder: one stands in while the command runs, then goes.
    await fs.rmdir(path.join(ws, 'sub'));
    const absent = await run(sh(`mkdir -p sub && git init -q sub && ${plantFsmonitor('sub')}`));
    expect(absent.details).not.toMatchObject({ exitCode: 0 });
    await expect(fs.access(path.join(ws, 'sub'))).rejects.toThrow();
    await expectPersonsGitRunsNothingPlanted();
  });

  it('by making a .git in a workspace that is not a repository, which leaves nothing behind', async () => {
    await fs.rm(path.join(ws, '.git'), { recursive: true });
    const result = await run(sh(`git init -q . && ${plantFsmonitor('.')}`));
    expect(result.output.split('\n')[0]).toMatch(/\.git is read-only/);
    // The empty .git that stood in while it ran is gone again.
    await expect(fs.access(path.join(ws, '.git'))).rejects.toThrow();
    await expect(personsGit(['status'])).rejects.toThrow(/not a git repository/);
    await expect(fs.access(pwned)).rejects.toThrow();
  });

  it('nor through a hook manager config that a hook hands the commit to', async () => {
    await fs.writeFile(path.join(ws, '.pre-commit-config.yaml'), 'repos: []\n');
    const result = await run(sh(`echo "  - repo: local  # touch ${pwned}" >> .pre-commit-config.yaml`));
    expect(result.details).not.toMatchObject({ exitCode: 0 });
    expect(await fs.readFile(path.join(ws, '.pre-commit-config.yaml'), 'utf8')).toBe('repos: []\n');
  });

  it('while git status, diff and log still work confined, and a commit does with git: true', async () => {
    await fs.writeFile(path.join(ws, 'a.txt'), 'changed\n');
    const read = await run(sh('git status --short && git diff --stat && git log --oneline'));
    expect(read.details).toMatchObject({ exitCode: 0 });
    expect(read.details).toMatchObject({ stdout: expect.stringContaining(' M a.txt') });
    const env = '-c user.name=Agent -c user.email=a@example.invalid';
    const denied = await run(sh(`git ${env} commit -qam agent`));
    expect(denied.output.split('\n')[0]).toMatch(/\.git is read-only; ask with git: true/);
    const commit = await run(sh(`git ${env} commit -qam agent`, { git: true }));
    expect(commit.details).toMatchObject({ exitCode: 0 });
    expect(await personsGit(['log', '--format=%s'])).toBe('agent\nfirst\n');
  });
});

/** The secret stores below a folder the person could show in Settings (profile.ts's SECRET_STORES). */
const NESTED_SECRET_STORES: readonly string[] = [
  '.config/gh',
  '.config/hub',
  '.config/gcloud',
  '.config/git/credentials',
  '.config/rclone',
  '.config/github-copilot',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/Code/User/globalStorage',
  '.local/share/keyrings',
  '.cargo/credentials.toml',
  '.cargo/credentials',
  'snap/firefox',
  '.m2/settings.xml',
  '.gradle/gradle.properties',
];

/** Where the review found secrets a deny-list missed, and the ones it hid before. */
const PLANTED_SECRETS: readonly string[] = [
  '.ssh/id_ed25519',
  '.aws/credentials',
  '.gnupg/private-keys-v1.d/key.key',
  '.config/gh/hosts.yml',
  '.config/hub',
  '.netrc',
  '.git-credentials',
  '.config/git/credentials',
  '.npmrc',
  '.pypirc',
  '.cargo/credentials.toml',
  '.docker/config.json',
  '.kube/config',
  '.config/gcloud/credentials.db',
  '.azure/accessTokens.json',
  '.oci/config',
  '.terraform.d/credentials.tfrc.json',
  '.vault-token',
  '.mozilla/firefox/p/logins.json',
  '.thunderbird/p/logins.json',
  '.config/google-chrome/Default/Login Data',
  '.config/chromium/Default/Cookies',
  '.config/BraveSoftware/Brave-Browser/Default/Login Data',
  '.config/microsoft-edge/Default/Login Data',
  '.local/share/keyrings/login.keyring',
  '.password-store/email.gpg',
  '.pki/nssdb/key4.db',
  '.claude/.credentials.json',
  '.codex/auth.json',
  '.config/github-copilot/hosts.json',
  'snap/firefox/common/.mozilla/firefox/p/logins.json',
  '.pgpass',
  '.config/rclone/rclone.conf',
  '.Xauthority',
  '.gitconfig',
  '.bashrc',
];

describe('a confined command sees the home folder empty but for toolchains', () => {
  beforeEach(async () => {
    for (const [i, rel] of PLANTED_SECRETS.entries()) {
      await fs.mkdir(path.dirname(path.join(home, rel)), { recursive: true });
      await fs.writeFile(
        path.join(home, rel),
        `GATEHOUSE-PLANTED-SECRET-${i}\nexport OPENAI_API_KEY=sk-planted-${i}\n`,
      );
    }
    await fs.mkdir(path.join(home, '.cargo', 'bin'), { recursive: true });
    await fs.writeFile(path.join(home, '.cargo', 'bin', 'tool'), '#!/bin/sh\necho TOOLCHAIN-RUNS\n', { mode: 0o755 });
  });

  it(`reads none of ${PLANTED_SECRETS.length} planted secret stores, by path or by search`, async () => {
    const paths = PLANTED_SECRETS.map((rel) => `"${path.join(home, rel)}"`).join(' ');
    const result = await run(
      sh(`cat ${paths}; grep -r PLANTED ${home} /home /root 2>&1; ls -a ${home}; echo HOME=$HOME`),
    );
    expect(result.output).not.toContain('GATEHOUSE-PLANTED-SECRET');
    expect(result.output).not.toContain('sk-planted');
    expect(result.details).toMatchObject({ stdout: expect.stringContaining(`HOME=${home}\n`) });
  });

  it('shows the toolchains read-only, and a private writable home that is gone after the run', async () => {
    const result = await run(sh(`${home}/.cargo/bin/tool && echo cache > ~/.cache-file && cat ~/.cache-file`));
    expect(result.details).toMatchObject({ exitCode: 0, stdout: 'TOOLCHAIN-RUNS\ncache\n' });
    await expect(fs.access(path.join(home, '.cache-file'))).rejects.toThrow();
    const write = await run(sh(`echo x > ${home}/.cargo/bin/tool`));
    expect(write.output.split('\n')[0]).toMatch(/\.cargo\/bin is shown read-only/);
    // The plan lists what it shows, for the card.
    const ctx = await contextFor();
    const plan = (await runTool.plan(parseToolArgs(runTool, { argv: ['true'] }), ctx)) as CommandPlan;
    expect(plan.sandbox).toMatchObject({ shown: [path.join(home, '.cargo', 'bin')] });
  });

  it('shows a place the person added in Settings, with the secret stores inside it still hidden', async () => {
    const ctx = await contextFor(process.env, [path.join(home, '.config')]);
    const result = await run(
      sh(`ls ${home}/.config; cat ${home}/.config/gh/hosts.yml ${home}/.config/rclone/rclone.conf`),
      ctx,
    );
    expect(result.output).toContain('google-chrome');
    expect(result.output).not.toContain('GATEHOUSE-PLANTED-SECRET');
    // The data folder inside it stays hidden too.
    const data = await run(sh(`ls -a ${dataDir}`), ctx);
    expect(data.output).not.toContain('sessions');
  });

  it('keeps every secret store of the list hidden inside a shown place that holds it', async () => {
    // Each store below a folder the person could show, written out here (not taken from the
    // product's list), so that one dropped from the list is read here.
    const nested = NESTED_SECRET_STORES;
    for (const [i, rel] of nested.entries()) {
      const isFile = /\.[a-z]+$|credentials$|hub$/.test(rel);
      const file = isFile ? path.join(home, rel) : path.join(home, rel, 'secret');
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, `GATEHOUSE-STORE-${i}\n`);
    }
    const parents = [...new Set(nested.map((rel) => path.join(home, rel.split('/')[0] as string)))];
    // What is not a store in the same places is read, so the search below does reach them.
    await fs.writeFile(path.join(home, '.config', 'visible.txt'), 'NOT-A-SECRET\n');
    const ctx = await contextFor(process.env, parents);
    const result = await run(sh(`find ${parents.join(' ')} -type f -exec cat {} + 2>/dev/null; echo end`), ctx);
    expect(result.output).toContain('NOT-A-SECRET');
    for (const [i, rel] of nested.entries()) expect(result.output, rel).not.toContain(`GATEHOUSE-STORE-${i}\n`);
  });

  it("cannot reach a Unix socket under the home folder (Docker Desktop's path)", async () => {
    const socket = path.join(home, '.docker', 'desktop', 'docker.sock');
    await fs.mkdir(path.dirname(socket), { recursive: true });
    let connections = 0;
    const server = net.createServer((c) => {
      connections++;
      c.destroy();
    });
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    try {
      const script = `require('net').connect(${JSON.stringify(socket)}).on('connect', () => process.exit(0)).on('error', (e) => { console.error(e.message); process.exit(3); })`;
      const result = await run({ argv: [process.execPath, '-e', script] });
      expect(result.details).toMatchObject({ exitCode: 3 });
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("a confined command's environment is an allow-list", () => {
  it('drops tokens, keys and connection strings, even under allowed-looking names', async () => {
    const env = {
      ...process.env,
      GITHUB_TOKEN: 'ghp_planted',
      AWS_SECRET_ACCESS_KEY: 'aws-planted',
      AWS_ACCESS_KEY_ID: 'AKIA-planted',
      NPM_TOKEN: 'npm-planted',
      DATABASE_URL: 'postgres://u:pw-planted@db/x',
      STRIPE_KEY: 'sk_live_planted',
      SOME_RANDOM_VAR: 'random-planted',
      LANG: 'C.UTF-8',
    };
    const result = await run({ argv: ['env'] }, await contextFor(env));
    expect(result.output).not.toMatch(/planted/);
    expect(result.details).toMatchObject({ stdout: expect.stringContaining('LANG=C.UTF-8') });
    expect(result.details).toMatchObject({ stdout: expect.stringContaining('PATH=') });
  });
});

describe('a PATH a config declares', () => {
  it('never makes a host folder under /tmp visible, as the app PATH does', async () => {
    const hostDir = await fs.mkdtemp('/tmp/gatehouse-path-');
    try {
      await fs.writeFile(path.join(hostDir, 'socket-stand-in'), 'HOST-TMP-SECRET');
      const sandbox = new BwrapSandbox({ dataDir, home, env: process.env });
      const profile = await sandbox.profile(ws, { network: false, git: false });
      const outcome = await runToEnd(
        {
          argv: ['sh', '-c', `cat ${hostDir}/socket-stand-in; echo "$PATH"`],
          cwd: ws,
          env: { PATH: process.env.PATH },
          declaredEnv: { PATH: `${hostDir}:${process.env.PATH}` },
          timeoutMs: 20_000,
        },
        { sandbox, profile },
      );
      expect(outcome.stdout.text).toContain(hostDir); // the server gets the PATH it declared…
      expect(outcome.stdout.text).not.toContain('HOST-TMP-SECRET'); // …and still cannot see the folder
    } finally {
      await fs.rm(hostDir, { recursive: true, force: true });
    }
  });
});

describe('network goes only through the proxy, to the domains on the card', () => {
  let standIn: http.Server;
  let standInPort: number;
  let hostLoopback: net.Server;
  let hostConnections: number;

  beforeEach(async () => {
    standIn = http.createServer((_req, res) => res.end('REGISTRY-STAND-IN\n'));
    await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
    standInPort = (standIn.address() as net.AddressInfo).port;
    hostConnections = 0;
    hostLoopback = net.createServer((c) => {
      hostConnections++;
      c.end('HOST-SERVICE\n');
    });
    await new Promise<void>((resolve) => hostLoopback.listen(0, '127.0.0.1', resolve));
  });
  afterEach(async () => {
    await new Promise((resolve) => standIn.close(resolve));
    await new Promise((resolve) => hostLoopback.close(resolve));
  });

  /** The proxy's test hook lands registry.npmjs.org on the loopback stand-in: nothing leaves this machine. */
  async function networkContext(): Promise<ToolContext> {
    const sandbox = new BwrapSandbox({
      dataDir,
      home,
      env: process.env,
      network: {
        connect: (host) => (host === 'registry.npmjs.org' ? { host: '127.0.0.1', port: standInPort } : undefined),
        lookup: async () => [],
      },
    });
    return { ...(await contextFor()), sandbox: { sandbox, refuseUnconfined: () => false } };
  }

  it('reaches a listed domain, and a domain not listed is refused with a line that names it', async () => {
    const ctx = await networkContext();
    try {
      const plan = (await runTool.plan(
        parseToolArgs(runTool, { argv: ['true'], network: ['Registry.npmjs.org'] }),
        ctx,
      )) as CommandPlan;
      // One spelling, on the plan, the card and the grant alike.
      expect(plan).toMatchObject({ network: ['registry.npmjs.org'], sandbox: { network: ['registry.npmjs.org'] } });
      const ok = await run(
        { argv: ['curl', '-sS', 'http://registry.npmjs.org/pkg'], network: ['registry.npmjs.org'] },
        ctx,
      );
      expect(ok.details).toMatchObject({ exitCode: 0, stdout: 'REGISTRY-STAND-IN\n' });
      const refused = await run(
        { argv: ['curl', '-sSf', 'https://example.org/'], network: ['registry.npmjs.org'] },
        ctx,
      );
      expect(refused.output.split('\n')[0]).toBe(
        "blocked by the sandbox: example.org is not on this command's network list (registry.npmjs.org) (run it again with example.org added to network if the command needs it)",
      );
    } finally {
      await ctx.sandbox?.sandbox.dispose();
    }
  });

  it('still runs a program that starts a child with its output ignored (opens /dev/null), under the sealed seccomp', async () => {
    const ctx = await networkContext();
    try {
      const script = `require('child_process').spawn('true', { stdio: 'ignore' }).on('error', (e) => { console.error(e.message); process.exit(3); }).on('exit', (c) => process.exit(c))`;
      const result = await run({ argv: [process.execPath, '-e', script], network: true }, ctx);
      expect(result.details).toMatchObject({ exitCode: 0 });
    } finally {
      await ctx.sandbox?.sandbox.dispose();
    }
  });

  it("cannot reach the host's loopback, directly or through the proxy, even with network: true", async () => {
    const ctx = await networkContext();
    const port = (hostLoopback.address() as net.AddressInfo).port;
    try {
      const direct = await run(
        { argv: ['curl', '-sS', '--noproxy', '*', `http://127.0.0.1:${port}/`], network: true },
        ctx,
      );
      expect(direct.details).not.toMatchObject({ exitCode: 0 });
      const proxied = await run({ argv: ['curl', '-sS', `http://localhost:${port}/`], network: true }, ctx);
      expect(proxied.details).not.toMatchObject({ exitCode: 0 });
      expect(hostConnections).toBe(0);
    } finally {
      await ctx.sandbox?.sandbox.dispose();
    }
  });

  it("cannot reach the host's abstract Unix sockets (where X11 listens), even with network: true", async () => {
    const ctx = await networkContext();
    const name = `gatehouse-abstract-${process.pid}`;
    let connections = 0;
    const abstract = net.createServer((c) => {
      connections++;
      c.destroy();
    });
    await new Promise<void>((resolve) => abstract.listen(`\0${name}`, resolve));
    try {
      const script = `require('net').connect('\\0${name}').on('connect', () => process.exit(0)).on('error', (e) => { console.error(e.message); process.exit(3); })`;
      const result = await run({ argv: [process.execPath, '-e', script], network: true }, ctx);
      expect(result.details).toMatchObject({ exitCode: 3 });
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => abstract.close(resolve));
      await ctx.sandbox?.sandbox.dispose();
    }
  });
});

describe('hidden places are taken once, at start', () => {
  it('refuses every command, with words, once the data folder has moved away, until the app restarts', async () => {
    const ctx = await contextFor();
    await fs.rename(dataDir, `${dataDir}-moved`);
    try {
      await expect(runTool.plan(parseToolArgs(runTool, { argv: ['true'] }), ctx)).rejects.toThrow(
        /^refused: the app's data folder is no longer at .*Gatehouse, where it was when Gatehouse started, so the sandbox cannot hide it\. Nothing ran\. Restart Gatehouse\.$/,
      );
      // A new folder at the old path is not the one hidden at start: still refused.
      await fs.mkdir(dataDir);
      await expect(runTool.plan(parseToolArgs(runTool, { argv: ['true'] }), ctx)).rejects.toThrow(/^refused: /);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
      await fs.rename(`${dataDir}-moved`, dataDir);
    }
  });
});
