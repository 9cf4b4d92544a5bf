/**
 * MCP server configuration in Claude Code's format (SPEC §10): `.mcp.json` at the
 * workspace root and `mcp.json` in the user's config folder, each
 * `{"mcpServers": {name: {command, args, env, cwd} | {type: "http", url, headers}}}`.
 *
 * Each server is checked on its own, so one bad entry is a problem and the rest still
 * load. Nothing is started here: this only reads the two files.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { NotAFileError, readRegularFile } from '../paths/regular-file.js';
import { VariableExpander, type McpFieldSource } from './config-variables.js';
import { serverFolder } from './server-folder.js';

export type McpScope = 'workspace' | 'user';

export type McpTransportConfig =
  | {
      type: 'stdio';
      command: string;
      args: string[];
      env: Record<string, string>;
      /** Absolute. By default a workspace's server runs in the workspace, a user's in a folder of its own (`ownFolder`). */
      cwd: string;
      /** `cwd` is the user server's own folder (server-folder.ts), made when it starts; absent when the config names one. */
      ownFolder?: true;
    }
  | { type: 'http'; url: string; headers: Record<string, string> };

export interface McpServerConfig {
  name: string;
  scope: McpScope;
  /** Absolute path of the file that defines it. */
  source: string;
  transport: McpTransportConfig;
  /** The fields the person's `${VAR}`s fed, as written; absent when none did. Names only reach a card from here. */
  variables?: McpFieldSource[];
}

export interface McpConfigProblem {
  /** Absolute path of the file. */
  source: string;
  /** The server it concerns, when it concerns one. */
  server?: string;
  /** Plain words, for the user. */
  message: string;
}

export interface McpConfig {
  servers: McpServerConfig[];
  problems: McpConfigProblem[];
}

export interface McpConfigInput {
  /** Null when no workspace is open. */
  workspaceRoot: string | null;
  userConfigDir: string;
  /** Where `${VAR}` takes its values. */
  env: Readonly<Record<string, string | undefined>>;
}

export const WORKSPACE_MCP_FILE = '.mcp.json';
export const USER_MCP_FILE = 'mcp.json';

/** A config file larger than this is refused: a real one is a few hundred bytes. */
export const MCP_CONFIG_MAX_BYTES = 256 * 1024;

/** Server names become part of tool names, `mcp__<server>__<tool>`, which providers limit to these characters. */
const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const stringMap = z.record(z.string(), z.string());

// z.object drops keys it does not know: Claude Code's files carry extras (e.g. "timeout").
const stdioEntry = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: stringMap.default({}),
  cwd: z.string().optional(),
});

const httpEntry = z.object({ url: z.string(), headers: stringMap.default({}) });

/** What each field must be, in the words a problem uses. */
const FIELD_RULES: Record<string, string> = {
  command: 'must be a non-empty string',
  args: 'must be a list of strings',
  env: 'must be an object whose values are strings',
  cwd: 'must be a string',
  url: 'must be a string',
  headers: 'must be an object whose values are strings',
};

interface ConfigFile {
  source: string;
  scope: McpScope;
  /** Where a stdio server runs when its entry names no cwd; `own` when that is a folder of its own, made at its start. */
  defaultFolder(server: string): { cwd: string; own: boolean };
  /** What a relative cwd is relative to. */
  relativeTo(server: string): string;
}

/** Both files' servers and problems. A server the user defines hides the workspace's of the same name. */
export async function readMcpConfig(input: McpConfigInput): Promise<McpConfig> {
  const userSource = path.resolve(input.userConfigDir, USER_MCP_FILE);
  const userFile = userConfigFile(userSource, input);
  const user = await readConfigFile(userFile, input);
  if (input.workspaceRoot === null) return { servers: user.servers, problems: user.problems };
  const root = input.workspaceRoot;
  const workspaceFile: ConfigFile = {
    source: path.resolve(root, WORKSPACE_MCP_FILE),
    scope: 'workspace',
    defaultFolder: () => ({ cwd: root, own: false }),
    relativeTo: () => root,
  };
  const workspace = await readConfigFile(workspaceFile, input);
  // Tool names would collide, and the user's own choice wins over what a checkout brings.
  const hidden = workspace.servers.filter((server) => user.names.has(server.name));
  const shadowProblems = hidden.map((server) => ({
    source: server.source,
    server: server.name,
    message: `server "${server.name}": a user-level server has the same name (in ${userFile.source}); this one is left out`,
  }));
  return {
    servers: [...workspace.servers.filter((server) => !hidden.includes(server)), ...user.servers],
    problems: [...workspace.problems, ...shadowProblems, ...user.problems],
  };
}

/**
 * A user's server starts, unconfined and with no card, in a folder of its own: never in the
 * workspace, whose `./node_modules/.bin` or `./mod.py` a launcher (npx, python -m) would
 * run (server-folder.ts says why that folder). A relative `cwd` the person wrote is their
 * own choice and means the project, as in Claude Code; with no workspace, the own folder.
 */
function userConfigFile(source: string, input: McpConfigInput): ConfigFile {
  const own = (server: string) => serverFolder(input.userConfigDir, server);
  return {
    source,
    scope: 'user',
    defaultFolder: (server) => ({ cwd: own(server), own: true }),
    relativeTo: (server) => input.workspaceRoot ?? own(server),
  };
}

/** One file's servers and problems, and every name it defines (valid or not), for precedence. */
async function readConfigFile(file: ConfigFile, input: McpConfigInput): Promise<McpConfig & { names: Set<string> }> {
  const text = await readConfigText(file.source);
  if (text === null) return { servers: [], problems: [], names: new Set() };
  const entries = typeof text === 'string' ? serverEntries(text, file.source) : text;
  if (!Array.isArray(entries)) return { servers: [], problems: [entries], names: new Set() };
  const servers: McpServerConfig[] = [];
  const problems: McpConfigProblem[] = [];
  for (const [name, raw] of entries) {
    const server = parseServer(name, raw, file, input.env);
    if ('message' in server) problems.push(server);
    else servers.push(server);
  }
  return { servers, problems, names: new Set(entries.map(([name]) => name)) };
}

/** The file's text, null when there is none, or why it cannot be used. */
async function readConfigText(source: string): Promise<string | null | McpConfigProblem> {
  const base = path.basename(source);
  try {
    // Links are followed (dotfiles are often linked in); the no-hang reader then refuses a
    // FIFO or a device and caps the size.
    const real = await fs.realpath(source);
    const read = await readRegularFile(real, MCP_CONFIG_MAX_BYTES);
    if (read === null) return null;
    if (!read.cut) return read.bytes.toString('utf8');
    return {
      source,
      message: `${base} is ${read.size} bytes; it is read only up to ${MCP_CONFIG_MAX_BYTES} bytes (256 KiB)`,
    };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (err instanceof NotAFileError) return { source, message: `${base}: ${err.message}` };
    return { source, message: `cannot read ${base}: ${(err as Error).message}` };
  }
}

/** The `mcpServers` entries, in file order, or why the file as a whole is unusable. */
function serverEntries(text: string, source: string): [string, unknown][] | McpConfigProblem {
  const base = path.basename(source);
  // Editors on Windows may start the file with a byte-order mark, which JSON.parse refuses.
  const json = text.replace(/^\uFEFF/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    return { source, message: `${base} is not valid JSON: ${jsonError(err as Error, json)}` };
  }
  if (!isPlainObject(parsed)) return { source, message: `${base} must hold a JSON object` };
  // VS Code's mcp.json says "servers": without this the file would look empty.
  if (!isPlainObject(parsed.mcpServers)) return { source, message: `${base} has no "mcpServers" object` };
  return Object.entries(parsed.mcpServers);
}

/**
 * V8's message without the parts that do not help a person: "in JSON at position N" becomes
 * "at line L column C", and a quoted piece of the file (which could be anything) is dropped.
 */
function jsonError(err: Error, text: string): string {
  const at = /\s*in JSON at position (\d+)(?: \(line \d+ column \d+\))?/.exec(err.message);
  if (at) {
    const { line, column } = lineColumn(text, Number(at[1]));
    return `${err.message.slice(0, at.index)} at line ${line} column ${column}`;
  }
  return err.message.replace(/, ".*" is not valid JSON$/s, '');
}

function lineColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

function parseServer(
  name: string,
  raw: unknown,
  file: ConfigFile,
  env: McpConfigInput['env'],
): McpServerConfig | McpConfigProblem {
  const problem = (message: string): McpConfigProblem => ({
    source: file.source,
    server: name,
    message: `server "${name}": ${message}`,
  });
  const badName = nameProblem(name);
  if (badName) return { source: file.source, server: name, message: badName };
  if (!isPlainObject(raw)) return problem('must be a JSON object');
  const entry = parseEntry(raw);
  if (typeof entry === 'string') return problem(entry);
  const variables = new VariableExpander(env);
  const expanded = expandEntry(entry, variables);
  const missing = variables.missingMessage();
  if (missing) return problem(missing);
  const transport = toTransport(expanded, file, name);
  if (typeof transport === 'string') return problem(transport);
  const fed = variables.sources.length > 0 ? { variables: variables.sources } : {};
  return { name, scope: file.scope, source: file.source, transport, ...fed };
}

/** Why a server name cannot be used, or null. */
function nameProblem(name: string): string | null {
  const quoted = JSON.stringify(name);
  if (!SERVER_NAME.test(name)) return `server name ${quoted} must be 1 to 64 letters, digits, "_" or "-"`;
  // The tool name mcp__<server>__<tool> is split at the first "__" after "mcp__": a "__"
  // inside the name, or a "_" at its end, would move that split.
  if (name.includes('__')) return `server name ${quoted} must not contain "__", which separates server from tool`;
  if (name.endsWith('_')) return `server name ${quoted} must not end with "_", which would run into the "__" after it`;
  return null;
}

type StdioEntry = { type: 'stdio' } & z.infer<typeof stdioEntry>;
type HttpEntry = { type: 'http' } & z.infer<typeof httpEntry>;

/** The entry as written, checked for shape, or what is wrong with it. */
function parseEntry(raw: Record<string, unknown>): StdioEntry | HttpEntry | string {
  const type = raw.type ?? 'stdio';
  if (type === 'sse') return 'type "sse" is not supported: only streamable HTTP ("type": "http") is';
  if (type === 'http') {
    const parsed = httpEntry.safeParse(raw);
    return parsed.success ? { type: 'http', ...parsed.data } : shapeProblem(parsed.error);
  }
  if (type !== 'stdio') return `"type" must be "stdio" or "http", not ${JSON.stringify(type)}`;
  const parsed = stdioEntry.safeParse(raw);
  if (parsed.success) return { type: 'stdio', ...parsed.data };
  const message = shapeProblem(parsed.error);
  // An HTTP server written without its "type" would otherwise read as only a bad command.
  return raw.command === undefined && raw.url !== undefined
    ? `${message} (an HTTP server needs "type": "http")`
    : message;
}

function shapeProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const [field, key] = issue?.path ?? [];
  const rule = typeof field === 'string' ? FIELD_RULES[field] : undefined;
  if (!rule) return issue?.message ?? 'is not a valid server entry';
  if (typeof key === 'string') return `"${String(field)}" ${rule} (${JSON.stringify(key)} is not)`;
  if (typeof key === 'number') return `"${String(field)}" ${rule} (item ${key + 1} is not)`;
  return `"${String(field)}" ${rule}`;
}

/**
 * A copy with every value a variable may appear in expanded; keys stay as written. Each
 * field is named as a card names it: "args[2]" (0-based, as in the file), "env NAME",
 * "header NAME".
 */
function expandEntry(entry: StdioEntry | HttpEntry, variables: VariableExpander): StdioEntry | HttpEntry {
  const expand = (field: string, value: string) => variables.expand(field, value);
  const values = (kind: string, map: Record<string, string>) =>
    Object.fromEntries(Object.entries(map).map(([key, value]) => [key, expand(`${kind} ${key}`, value)]));
  if (entry.type === 'http') {
    return { ...entry, url: expand('url', entry.url), headers: values('header', entry.headers) };
  }
  return {
    ...entry,
    command: expand('command', entry.command),
    args: entry.args.map((arg, i) => expand(`args[${i}]`, arg)),
    env: values('env', entry.env),
    cwd: entry.cwd === undefined ? undefined : expand('cwd', entry.cwd),
  };
}

/** The transport from the expanded entry: checks that need the final values, and an absolute cwd. */
function toTransport(entry: StdioEntry | HttpEntry, file: ConfigFile, name: string): McpTransportConfig | string {
  if (entry.type === 'stdio') {
    if (!entry.command) return '"command" is empty once its variables are expanded';
    if (entry.cwd !== undefined) {
      // Relative to the workspace, not to wherever the app was started.
      return { ...entry, cwd: path.resolve(file.relativeTo(name), entry.cwd) };
    }
    const folder = file.defaultFolder(name);
    return { ...entry, cwd: folder.cwd, ...(folder.own ? { ownFolder: true as const } : {}) };
  }
  let url: URL;
  try {
    url = new URL(entry.url);
  } catch {
    return '"url" is not a valid URL';
  }
  // The URL itself is not repeated: it may carry a token.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `"url" must start with http: or https: (it starts with ${url.protocol})`;
  }
  return entry;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
