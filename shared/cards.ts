/**
 * What a permission card shows, and the one exact grant that "Allow for this session"
 * would record. Pure data: the core builds these, the reducer and the UI read them.
 */
import { agentName } from './agents.js';

export type Answer = 'allow_once' | 'allow_session' | 'deny';
export const ANSWERS: readonly Answer[] = ['allow_once', 'allow_session', 'deny'];

/** A card that is asked every time: "Allow for this session" has no meaning for it. */
const ONCE_ONLY: readonly Answer[] = ['allow_once', 'deny'];

/**
 * The answers a card of this kind takes. Applying a place's change into the person's folder
 * (SPEC §15) is one act on one review: no grant can stand for the next one.
 */
export function answersFor(kind: CardBody['kind']): readonly Answer[] {
  return kind === 'place_apply' ? ONCE_ONLY : ANSWERS;
}

export type ReadTool = 'read_file' | 'grep' | 'list_dir';
export type WriteTool = 'write_file' | 'search_replace';

/**
 * One exact grant, as stored in meta.json. Matching is by exact equality, never by prefix.
 * A read grant names its tool too: allowing list_dir on a folder must not let grep read
 * every file below it.
 */
export type Grant =
  | { kind: 'write'; path: string }
  | { kind: 'read'; tool: ReadTool; path: string }
  | CommandGrant
  | McpCallGrant
  | McpServerGrant
  | AgentStartGrant
  | AgentAskGrant
  | PlaceApplyGrant;

/**
 * What a `place_apply` card names as its grant, for the card event's shape only: that card
 * takes no allow_session (answersFor) and the gate never looks a plan of it up in the grants.
 */
export interface PlaceApplyGrant {
  kind: 'place_apply';
  origin: string;
}

/** An external agent allowed to start (and restart) for the session, while its launch keeps this fingerprint (SPEC §14). */
export interface AgentStartGrant {
  kind: 'agent_start';
  agent: string;
  fingerprint: string;
}

/**
 * One of an agent's own permission requests allowed for the session: its kind of tool and
 * exactly this title, as the agent worded it (SPEC §14; a second signal, never the gate).
 */
export interface AgentAskGrant {
  kind: 'agent_ask';
  agent: string;
  toolKind: string;
  title: string;
}

/**
 * An MCP tool call allowed for the session (SPEC §10): that tool, with exactly these
 * arguments (canonical JSON), while the server's config and the tool's name, description
 * and input schema keep the fingerprint the person saw.
 */
export interface McpCallGrant {
  kind: 'mcp';
  /** The tool as the model names it: mcp__<server>__<tool>. */
  tool: string;
  /** The arguments as canonical JSON (RFC 8785), so key order never matters. */
  args: string;
  fingerprint: string;
}

/** A workspace MCP server allowed to start (and restart) for the session, while its config keeps this fingerprint. */
export interface McpServerGrant {
  kind: 'mcp_server';
  server: string;
  /** The .mcp.json that names it. */
  source: string;
  fingerprint: string;
}

/**
 * A command grant is exact in its flags too (SPEC §9): `network` and `unconfined` are
 * present only when true, and a grant given for a confined run never covers an
 * unconfined one (nor one with network), nor the other way round.
 */
export interface CommandGrant {
  kind: 'command';
  argv: string[];
  cwd: string;
  /** The run has the network (asked for by the call): any domain, or only those listed (sorted). */
  network?: true | string[];
  /** The run is not confined: asked for by the call, or no sandbox could run here. */
  unconfined?: true;
  /** The run may write .git (asked for by the call with git: true). */
  git?: true;
}

/**
 * What an allowed command can reach (SPEC §9), as the card shows it and the run is held
 * to. Paths are absolute and real.
 */
export type CommandSandbox =
  | {
      confined: true;
      /** false: none; true: any domain through the app's proxy; a list: only those domains. */
      network: boolean | string[];
      /** `git: true`: .git writable (its hooks and config not). Absent on cards from before it existed. */
      git?: boolean;
      /** The home folder, empty inside but for `shown`. Absent on cards from before the home was emptied. */
      home?: string;
      /** Where it may write (the workspace); a private /tmp and a private home come on top. */
      writable: string[];
      /** Inside a writable folder but kept read-only (.git, .gatehouse, .claude, the hooks folder). */
      readOnly: string[];
      /** What it sees of the home folder, read-only: toolchains, caches, places added in Settings. */
      shown?: string[];
      /** Neither read nor written, even inside a shown place: the app's data folder, secret stores, /run. */
      hidden: string[];
      /** The repository runs git hooks at the person's next commit (a hook in .git/hooks, or core.hooksPath). */
      hooks?: true;
    }
  | { confined: false; reason: string };

export interface WriteCardBody {
  kind: 'write';
  tool: WriteTool;
  /** Absolute, resolved path the write lands on. */
  path: string;
  inside: boolean;
  /** True when the file does not exist yet. */
  creates: boolean;
  /** Unified diff (3 lines of context) of disk against the proposal; maybe truncated. */
  diff: string;
  diffTruncated: boolean;
  /** Byte size of the whole diff text, truncated or not. */
  diffBytes: number;
  /** Byte size of the proposed file content. */
  proposalBytes: number;
  /** Byte size of the file on disk when the card went up, or null when absent. */
  beforeBytes: number | null;
  /** SHA-256 (hex) of the bytes on disk when the card went up, or "absent". */
  digest: string;
  /** Content-addressed blob (sha256 hex) in the session folder holding every proposed byte. */
  proposalBlob: string;
  /** Set when the diff could not be computed within bounds and a whole-file hunk is shown. */
  diffNote?: string;
  /** Why the person cannot edit this proposal on the card (SPEC §13); absent when they can. */
  uneditable?: string;
}

export interface ReadCardBody {
  kind: 'read';
  tool: ReadTool;
  /** Absolute, resolved path outside the workspace. */
  path: string;
}

export interface CommandCardBody {
  kind: 'command';
  tool: 'run';
  argv: string[];
  /** Absolute, resolved working folder. */
  cwd: string;
  /** Present only when the call asked for a timeout other than the default. */
  timeoutS?: number;
  /** What the run can reach. Absent on cards from before commands were confined. */
  sandbox?: CommandSandbox;
  /** The call asked for the network: any domain, or the domains listed. */
  network?: true | string[];
  /** The call asked to run without the sandbox. */
  unconfined?: true;
  /** The call asked to write git state (git: true). */
  git?: true;
}

/** What a person allowed of an MCP tool: shown again, as a diff, when the tool changes. */
export interface McpToolShape {
  description: string;
  inputSchema: unknown;
}

/** A call to a tool of an MCP server (SPEC §10). */
export interface McpCardBody {
  kind: 'mcp';
  /** mcp__<server>__<tool>, as the model called it. */
  tool: string;
  server: string;
  /** The tool's own name on its server. */
  name: string;
  description: string;
  inputSchema: unknown;
  /** The arguments as formatted JSON (two spaces), exactly what the server will receive. */
  argsJson: string;
  /** The same arguments as canonical JSON: what allow_session binds. */
  argsCanonical: string;
  /** The server's annotations (readOnlyHint…): shown, never trusted to skip a card. */
  annotations?: Record<string, unknown>;
  /** Of the server's config and the tool's name, description and schema. */
  fingerprint: string;
  /** Set when the tool changed since the person last allowed it: what they allowed then. */
  changedFrom?: McpToolShape;
}

/**
 * One of the person's environment variables that a server's config takes with `${VAR}`,
 * and the field it feeds: "header Authorization ← $GITHUB_TOKEN". Names only, never the value.
 */
export interface McpVariableFeed {
  /** "header Authorization", "env GITHUB_TOKEN", "args[2]" (0-based, as in the file), "command", "cwd" or "url". */
  field: string;
  /** The variable's name, without `$`. */
  variable: string;
}

/**
 * A workspace's MCP server about to start (SPEC §10): a command, or a connection to a URL.
 * A field one of the person's variables fed is shown as written (`${VAR}` and all), and
 * `variables` names each: the card, and so the log, never carries a variable's value.
 */
export interface McpServerCardBody {
  kind: 'mcp_server';
  server: string;
  /** The .mcp.json that names it. */
  source: string;
  /** For a stdio server: the argv and folder, the names of the variables it sets, and its sandbox. */
  argv?: string[];
  cwd?: string;
  envNames?: string[];
  sandbox?: CommandSandbox;
  /** For an HTTP server: where it connects and the names of the headers it sends. */
  url?: string;
  headerNames?: string[];
  /** Each of the person's variables the config takes, and the field it feeds. Absent on cards from before they were named. */
  variables?: McpVariableFeed[];
  /** Of the config as it starts, values included (so a changed value asks again); a hash, never shown. */
  fingerprint: string;
  /** Set when the server's config changed since it was last allowed: the old fingerprint's config in words. */
  changed?: string;
}

/**
 * An external agent about to start (SPEC §14): the exact argv of its jailed process, its
 * pinned version, what it sees and may write, and the hosts it may reach.
 */
export interface AgentStartCardBody {
  kind: 'agent_start';
  agent: string;
  label: string;
  version: string;
  argv: string[];
  /** Shown read-only inside the jail (the workspace among them, but for a staged agent's place). */
  readOnly: string[];
  /** Writable inside the jail: its private HOME only (and a staged agent's place). */
  writable: string[];
  /**
   * A staged agent's place (SPEC §15): the place it writes and runs in without a card, the
   * person's folder it cannot see, and what that means, in words.
   */
  place?: { path: string; origin: string; words: string };
  /** Its network: only these hosts, through Gatehouse's proxy. */
  domains: string[];
  /** The names of the environment variables passed in (never their values). */
  envNames: string[];
  /**
   * A model endpoint on this machine the jail reaches past the proxy, in words ("model
   * endpoint on this machine: 127.0.0.1:11434"), when the person named one.
   */
  modelEndpoint?: string;
  /**
   * Where its key comes from, in words, when it uses the key saved in Gatehouse (added to
   * its requests outside the jail; the agent holds a stand-in).
   */
  keySource?: string;
  /** Of the launch as it starts; a hash, never shown. */
  fingerprint: string;
}

/**
 * An agent's own permission request (ACP `session/request_permission`) for something the
 * gate does not hold (a web fetch, an MCP tool of its own): its words and its options.
 */
export interface AgentAskCardBody {
  kind: 'agent_ask';
  agent: string;
  label: string;
  /** The agent's title for the call, as it sent it. */
  title: string;
  /** ACP's tool kind: read, edit, delete, move, search, execute, think, fetch, other. */
  toolKind: string;
  /** What the agent showed with it (text content, locations), plain. */
  detail?: string;
  /** The agent's options, as it named them (allow_once, allow_always, reject_once, reject_always). */
  options: { optionId: string; name: string; kind: string }[];
}

/** One file of a model's proposed apply, as its card lists it. */
export interface PlaceApplyCardFile {
  /** Relative to the place and to the origin, forward slashes. */
  path: string;
  change: 'added' | 'modified' | 'deleted';
  /** As the review found it: `conflict` is named and never written; `applied` is already in your folder. */
  status: 'ready' | 'conflict' | 'applied';
}

/**
 * The model proposes applying its place's change into the person's folder (SPEC §15): the
 * files from a review made as the card went up, how (as files, or as a commit with the exact
 * git commands), and the folder it writes into. Allowed once, it runs as the person's own
 * apply of that review would; it is never allowed for the session.
 */
export interface PlaceApplyCardBody {
  kind: 'place_apply';
  as: 'files' | 'commit';
  /** The person's folder the apply writes into. */
  origin: string;
  /** The place it applies from (the session's workspace). */
  place: string;
  files: PlaceApplyCardFile[];
  /** For a commit: the branch it lands on and the commands run for it, in order. */
  commit?: { branch: string; argv: string[][] };
  /** The commit's message, as the model wrote it (or the app's default when it gave none). */
  message?: string;
  /**
   * Of the review's files as listed (paths, changes, statuses, the person's digests, the
   * place's diffs): an answer to a card whose review no longer reads the same is dropped and
   * the card asks again. A hash, never shown.
   */
  fingerprint: string;
}

export type CardBody =
  | WriteCardBody
  | ReadCardBody
  | CommandCardBody
  | McpCardBody
  | McpServerCardBody
  | AgentStartCardBody
  | AgentAskCardBody
  | PlaceApplyCardBody;

/** A command grant with its flags set only when true, so plain grants stay as they were. */
export function commandGrant(
  argv: readonly string[],
  cwd: string,
  flags: { network: boolean | readonly string[]; unconfined: boolean; git?: boolean },
): CommandGrant {
  return {
    kind: 'command',
    argv: [...argv],
    cwd,
    ...(flags.network === true ? { network: true as const } : {}),
    ...(Array.isArray(flags.network) ? { network: [...flags.network] } : {}),
    ...(flags.unconfined ? { unconfined: true as const } : {}),
    ...(flags.git ? { git: true as const } : {}),
  };
}

/** The words a card shows next to "Allow for this session". */
export function describeGrant(grant: Grant): string {
  switch (grant.kind) {
    case 'write':
      return `Allow writes to ${grant.path} (write_file and search_replace on this exact file) for the rest of this session.`;
    case 'read':
      return `Allow ${READ_WORDS[grant.tool]} ${grant.path} (this exact path, outside the workspace, with ${grant.tool} only) for the rest of this session.`;
    case 'command': {
      const how = grant.unconfined
        ? 'unconfined'
        : `confined, ${networkWords(grant.network ?? false)}${grant.git ? ', may write .git' : ''}`;
      return `Allow running exactly ${JSON.stringify(grant.argv)} in ${grant.cwd} (${how}) for the rest of this session. Any other argv, folder or flag still asks.`;
    }
    case 'mcp':
      return `Allow ${grant.tool} with exactly these arguments for the rest of this session, while the tool and its server stay as shown. Other arguments, or a changed tool, still ask.`;
    case 'mcp_server':
      return `Allow the MCP server "${grant.server}" from ${grant.source} to start, and restart, for the rest of this session, while its config stays as shown. A changed config still asks.`;
    case 'agent_start':
      return `Allow ${agentName(grant.agent)} to start, and restart, for the rest of this session, while its launch stays as shown. A changed launch still asks.`;
    case 'agent_ask':
      return `Answer yes to ${agentName(grant.agent)}'s requests titled exactly "${grant.title}" (${grant.toolKind}) for the rest of this session. Its writes and commands still come to the gate.`;
    case 'place_apply':
      return `Applying into ${grant.origin} is asked every time: it cannot be allowed for the session.`;
  }
}

const READ_WORDS: Record<ReadTool, string> = {
  read_file: 'reading the file',
  list_dir: 'listing the folder',
  grep: 'searching everything under',
};

/**
 * One canonical spelling of a grant, as Codex's ApprovalStore keys its approvals: two
 * grants are the same exactly when their keys are. Every field that makes a grant exact
 * is in it, in a fixed order; a command's flags are spelled the same whether absent or false.
 */
export function grantKey(g: Grant): string {
  switch (g.kind) {
    case 'write':
      return JSON.stringify(['write', g.path]);
    case 'read':
      return JSON.stringify(['read', g.tool, g.path]);
    case 'command':
      return JSON.stringify(['command', g.argv, g.cwd, networkKey(g.network), g.unconfined === true, g.git === true]);
    case 'mcp':
      return JSON.stringify(['mcp', g.tool, g.args, g.fingerprint]);
    case 'mcp_server':
      return JSON.stringify(['mcp_server', g.server, g.source, g.fingerprint]);
    case 'agent_start':
      return JSON.stringify(['agent_start', g.agent, g.fingerprint]);
    case 'agent_ask':
      return JSON.stringify(['agent_ask', g.agent, g.toolKind, g.title]);
    case 'place_apply':
      return JSON.stringify(['place_apply', g.origin]);
  }
}

export function sameGrant(a: Grant, b: Grant): boolean {
  return grantKey(a) === grantKey(b);
}

/** One spelling per network access, so two grants compare exactly (a list is kept sorted). */
function networkKey(network: boolean | readonly string[] | undefined): string {
  if (network === true) return 'any';
  return Array.isArray(network) && network.length > 0 ? JSON.stringify(network) : 'none';
}

/** A run's network in words: "no network", "network to any domain", "network only to a.org, b.org". */
export function networkWords(network: boolean | readonly string[]): string {
  if (network === true) return "network to any domain through Gatehouse's proxy";
  if (Array.isArray(network) && network.length > 0)
    return `network only to ${network.join(', ')} through Gatehouse's proxy`;
  return 'no network';
}

/** How many hidden places the card names before it says "and N more". */
const HIDDEN_NAMED = 3;

/**
 * Hidden on every card, so not worth a word on each: where the host's sockets live, and
 * the folders of the person's own files outside home (mounted disks, media, /var/tmp).
 */
const ALWAYS_HIDDEN = new Set(['/run', '/var/run', '/mnt', '/media', '/srv', '/var/tmp']);

export interface SandboxWords {
  /**
   * One line a person reads at a glance: "Confined: writes only in ~/src/app (not .git);
   * sees the system and your toolchains, not the rest of your home; no network".
   */
  line: string;
  /** What the call asked for beyond the default, each a plain warning ("asks for network"). */
  warnings: string[];
  /** What it sees of the home folder, read-only, as the card lists them (~/.cargo/bin). */
  shown: string[];
}

/**
 * `git: true` in a session's place: the person's `.git` stays read-only there (SPEC §15), so
 * the card must not say the command may write it.
 */
export const PLACE_GIT_WARNING =
  "asks to write .git, which stays read-only in this session's place: its change reaches your repository only when you apply it";

/** The card's line for a repository whose hooks run at the person's next commit. */
export const HOOKS_WARNING =
  "this repository's git hooks run workspace files (scripts, node_modules/.bin) at your next commit; this command can change them";

/**
 * A command card's sandbox in words (SPEC §9, UI card rule 7). `home`, when given, is
 * the user's home folder: paths below it are shown as ~. The words say what holds and
 * no more: the run tool's description says the same (a test keeps them together).
 */
export function describeSandbox(
  body: Pick<CommandCardBody, 'sandbox' | 'network' | 'unconfined' | 'git'>,
  home?: string,
): SandboxWords {
  const warnings: string[] = [];
  if (body.network === true) warnings.push('asks for network (any domain)');
  else if (Array.isArray(body.network)) warnings.push(`asks for network to ${body.network.join(', ')}`);
  const sandbox = body.sandbox;
  // A worktree's repository shown read-only (a session's place): git works, the person's files stay unseen.
  const history = sandbox?.confined ? (sandbox.shown ?? []).filter((p) => p.endsWith('/.git')) : [];
  if (body.git && history.length) warnings.push(PLACE_GIT_WARNING);
  else if (body.git)
    warnings.push('asks to write .git (commits, branches, fetches; its hooks and config stay read-only)');
  if (body.unconfined) warnings.push('asks to run unconfined');
  if (!sandbox) return { line: 'Unconfined: this card is from before commands were confined', warnings, shown: [] };
  if (!sandbox.confined) return { line: `Unconfined: ${sandbox.reason}`, warnings, shown: [] };
  // Its hooks are read-only, but what they run (package.json's scripts, node_modules/.bin) is not.
  if (sandbox.hooks) warnings.push(HOOKS_WARNING);
  const short = (p: string) => tildePath(p, home);
  const readOnly = sandbox.readOnly.length
    ? ` (not ${sandbox.readOnly.map((p) => relativeTo(p, sandbox.writable)).join(', ')})`
    : '';
  const writes = `writes only in ${sandbox.writable.map(short).join(', ')}${readOnly}`;
  // Before the proxy, network meant the machine's own network.
  const network =
    sandbox.home === undefined && sandbox.network === true ? 'with network' : networkWords(sandbox.network);
  const parts = [writes];
  // Cards from before the home folder was emptied list what they hid instead.
  const homeWords = sandbox.home === undefined ? null : seesWords(sandbox.shown ?? []);
  if (homeWords) parts.push(homeWords);
  if (history.length) parts.push(`reads the git history in ${history.map(short).join(', ')}, not the files beside it`);
  parts.push(network);
  const hidden = sandbox.hidden.filter(
    (p) => !ALWAYS_HIDDEN.has(p) && (sandbox.home === undefined || !isBelow(p, sandbox.home)),
  );
  if (hidden.length) {
    const named = hidden.slice(0, HIDDEN_NAMED).map(short).join(', ');
    const more = hidden.length - HIDDEN_NAMED;
    parts.push(`cannot see ${named}${more > 0 ? ` and ${more} more` : ''}`);
  }
  return { line: `Confined: ${parts.join('; ')}`, warnings, shown: (sandbox.shown ?? []).map(short) };
}

function seesWords(shown: readonly string[]): string {
  return shown.length
    ? 'sees the system and your toolchains, not the rest of your home'
    : 'sees the system, not your home';
}

function isBelow(p: string, root: string): boolean {
  const r = root.endsWith('/') ? root : `${root}/`;
  return p === root || p.startsWith(r);
}

function tildePath(p: string, home: string | undefined): string {
  if (!home || home === '/') return p;
  const h = home.endsWith('/') ? home.slice(0, -1) : home;
  if (p === h) return '~';
  return p.startsWith(`${h}/`) ? `~${p.slice(h.length)}` : p;
}

/** A read-only place named below the writable folder that holds it (".git/hooks"), else whole. */
function relativeTo(p: string, roots: readonly string[]): string {
  for (const root of roots) {
    const r = root.endsWith('/') ? root : `${root}/`;
    if (p.startsWith(r)) return p.slice(r.length);
  }
  return p;
}

/** A card in words, the same everywhere it is named: a notification, the waiting list, a label, a record. */
export interface CardWords {
  /** A notification's title: "Permission to run". */
  title: string;
  /** What is asked, as a verb: "run", "write", "call". */
  verb: string;
  /** What it is asked about, whole: the path, the argv joined, "echo on everything". */
  target: string;
  /** Short, for a label or a record: "write src/a.ts", "run npm…". */
  subject: string;
}

/**
 * The one place a card kind is put into words (DESIGN: describe a card kind once).
 * `short` shortens a path for display (workspace-relative in the window); whole by default.
 */
export function describeCard(body: CardBody, short: (path: string) => string = (p) => p): CardWords {
  switch (body.kind) {
    case 'write':
      return words('Permission to write', 'write', short(body.path), `write ${short(body.path)}`);
    case 'read':
      return words('Permission to read', 'read', body.path, `read ${body.path}`);
    case 'command':
      return words('Permission to run', 'run', body.argv.join(' '), `run ${body.argv[0] ?? ''}…`);
    case 'mcp':
      return words(
        'Permission to call an MCP tool',
        'call',
        `${body.name} on ${body.server}`,
        `call ${body.server}: ${body.name}`,
      );
    case 'mcp_server': {
      const what = body.argv ? body.argv.join(' ') : (body.url ?? '');
      return words(
        'Permission to start an MCP server',
        'start',
        `${body.server}: ${what}`,
        `start MCP server ${body.server}`,
      );
    }
    case 'agent_start':
      return words('Permission to start an agent', 'start', `${body.label} ${body.version}`, `start ${body.label}`);
    case 'agent_ask':
      return words(`${body.label} asks`, 'allow', body.title, `${body.label}: ${body.title}`);
    case 'place_apply': {
      const what = body.as === 'commit' ? 'a commit' : `${body.files.length} file${body.files.length === 1 ? '' : 's'}`;
      return words('Permission to apply into your folder', 'apply', `${what} into ${body.origin}`, `apply ${what}`);
    }
  }
}

function words(title: string, verb: string, target: string, subject: string): CardWords {
  return { title, verb, target, subject };
}
