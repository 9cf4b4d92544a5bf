/**
 * The bridge between a sandbox's own network namespace and its proxy door, as pure
 * functions of the door: the bwrap mount that shows the door's Unix socket inside, the
 * argv that starts one socat listener on the sandbox's loopback (127.0.0.1:3128, where
 * the door speaks HTTP proxy and SOCKS5 both) before the command, and the environment
 * that points tools at it. The same design as @anthropic-ai/sandbox-runtime, with three
 * differences: one listener rather than two (socat's start is most of what network adds
 * to a command's start); the command starts only once socat listens, which socat itself
 * says (no race on the first connection, and no polling); and the argv is passed to
 * `exec "$@"` untouched, never through a shell's parser. socat needs a Unix socket of its
 * own, so the sandbox's seccomp program cannot cover it: for a command with network, the
 * program is sealed over the command alone (seal.ts).
 *
 * An external agent's jail (agent-view.ts) bridges more than the door the same way: the
 * gate's MCP socket and, when the person named one, a model endpoint on this machine, each
 * a host Unix socket with a fixed loopback port inside (a "forward"), one socat listener each.
 */
import type { Forward } from '../sandbox.js';
import type { ProxyDoor } from './network-proxy.js';

/** Inside the sandbox's private /tmp, so the mount point and the readiness pipe land in the run's own folder. */
export const BRIDGE_DIR = '/tmp/.gatehouse-net';
export const DOOR_SOCKET_INSIDE = `${BRIDGE_DIR}/door.sock`;
const READY_PIPE = `${BRIDGE_DIR}/listening`;
export const PROXY_PORT = 3128;
/** How long the command waits for socat to say it listens, before giving up. */
const READY_WAIT_S = 5;
/** The exit code when the bridge did not come up (the command never started). */
export const BRIDGE_FAILED_EXIT = 125;

/** One socat listener inside: a port on the sandbox's loopback and the socket (inside) it leads to. */
export interface Listener {
  port: number;
  inside: string;
}

/** The proxy's listener: what every command with network gets. */
export const PROXY_LISTENER: Listener = { port: PROXY_PORT, inside: DOOR_SOCKET_INSIDE };

/** Where a forward's host socket is shown inside. */
export function forwardInside(forward: Pick<Forward, 'name'>): string {
  return `${BRIDGE_DIR}/${forward.name}.sock`;
}

/**
 * The listeners for a door (when there is one) and an agent's forwards, each checked: a
 * name that is a plain word (it becomes a path inside), a port of its own.
 */
export function listenersFor(door: boolean, forwards: readonly Forward[]): Listener[] {
  const listeners = [...(door ? [PROXY_LISTENER] : [])];
  for (const f of forwards) {
    if (!/^[a-z]{1,16}$/.test(f.name) || f.name === 'door')
      throw new Error(`bad forward name: ${JSON.stringify(f.name)}`);
    if (!Number.isInteger(f.port) || f.port < 1 || f.port > 65535) throw new Error(`bad forward port: ${f.port}`);
    if (listeners.some((l) => l.port === f.port || l.inside === forwardInside(f))) {
      throw new Error(`forward ${f.name} takes a port or a name already taken (${f.port})`);
    }
    listeners.push({ port: f.port, inside: forwardInside(f) });
  }
  return listeners;
}

/**
 * bwrap arguments that show the door's socket (and each forward's) at a fixed path inside,
 * in a fresh tmpfs of the bridge's own (where its readiness pipes are made, so a /tmp kept
 * between runs never holds an old one). Read-only: connect() works through a read-only
 * mount, and the command cannot replace the socket. They must come after the private /tmp
 * is mounted (`--bind <privateTmp> /tmp`), or it would cover them.
 */
export function bridgeMounts(door: Pick<ProxyDoor, 'socket'> | null, forwards: readonly Forward[] = []): string[] {
  return [
    '--tmpfs',
    BRIDGE_DIR,
    ...(door ? ['--ro-bind', door.socket, DOOR_SOCKET_INSIDE] : []),
    ...forwards.flatMap((f) => ['--ro-bind', f.socket, forwardInside(f)]),
  ];
}

/**
 * The script run by /bin/sh before the command. Its only inputs are its positional
 * parameters: $1 is socat's path, $2 how many listeners follow as (port, socket) pairs,
 * the rest is the command's argv (a count, never a marker, so no argv can pass for a
 * listener). Each socat is started in the background with `-d -d`, so its first line on
 * stderr is "listening on …" once its socket listens, or why it could not; that line comes
 * through a named pipe in the sandbox's private /tmp, which the shell reads (and so waits
 * on, with no polling) before the next, and before it execs the command; a watchdog writes
 * to it too if socat is silent for too long. socat ignores SIGPIPE, so its later lines,
 * with no reader left, cost it nothing. Its listener belongs to the sandbox's PID 1 once
 * the shell has exec'd and holds none of the command's output pipes; backlog=128 because
 * socat's own is 5, too few for a package manager's burst of parallel connections (a
 * dropped SYN costs a second).
 */
const BRIDGE_SCRIPT = [
  'socat=$1',
  'listeners=$2',
  'shift 2',
  'fail() {',
  '  echo "gatehouse: $1; the command did not run" >&2',
  `  exit ${BRIDGE_FAILED_EXIT}`,
  '}',
  '[ -x "$socat" ] || fail "$socat is missing inside the sandbox, so the network bridge cannot start"',
  'while [ "$listeners" -gt 0 ]; do',
  `  pipe=${READY_PIPE}-$1`,
  '  mkfifo "$pipe" || fail "the network bridge could not make its pipe"',
  `  "$socat" -d -d "TCP4-LISTEN:$1,bind=127.0.0.1,backlog=128,fork,reuseaddr" "UNIX-CONNECT:$2" 2>"$pipe" >/dev/null </dev/null &`,
  // A socat that never says a word must not hold the command forever: a second writer says so after a while.
  `  (sleep ${READY_WAIT_S}; echo "it did not listen within ${READY_WAIT_S} s") >"$pipe" 2>/dev/null </dev/null &`,
  '  watchdog=$!',
  '  IFS= read -r said <"$pipe"',
  '  kill $watchdog 2>/dev/null',
  '  case $said in',
  '    *" listening on "*) ;;',
  '    *) fail "the network bridge (socat) did not start inside the sandbox: ${said:-it said nothing}" ;;',
  '  esac',
  '  shift 2',
  '  listeners=$((listeners - 1))',
  'done',
  // bash takes a leading "-x" as exec's own option; env does not, and finds the program on PATH as exec would.
  'case $1 in -*) exec /usr/bin/env -- "$@" ;; esac',
  'exec "$@"',
].join('\n');

/**
 * The argv that runs `argv` inside the sandbox once the bridge's listeners are up: what
 * comes after bwrap's `--`. The original argv follows as positional parameters, byte for byte.
 */
export function bridgeArgv(
  argv: readonly string[],
  socatPath: string,
  listeners: readonly Listener[] = [PROXY_LISTENER],
): string[] {
  if (argv.length === 0) throw new Error('bridgeArgv needs a command');
  return [
    '/bin/sh',
    '-c',
    BRIDGE_SCRIPT,
    'gatehouse-net',
    socatPath,
    String(listeners.length),
    ...listeners.flatMap((l) => [String(l.port), l.inside]),
    ...argv,
  ];
}

/**
 * The environment that sends common tools through the bridge, one port for both
 * protocols. curl reads only the
 * lower-case http_proxy; npm reads HTTPS_PROXY but a project's .npmrc would win over it,
 * so npm_config_* are set (the environment outranks .npmrc); cargo hands its own setting
 * to libgit2 for git dependencies; Node's fetch and http follow the variables only with
 * NODE_USE_ENV_PROXY (Node 24). SOCKS URLs say socks5h, so the name, not an address, goes
 * to the proxy: the sandbox has no DNS of its own. NO_PROXY keeps the sandbox's own
 * loopback (a test server the command starts) direct.
 */
export function bridgeEnv(): Record<string, string> {
  const httpProxy = `http://127.0.0.1:${PROXY_PORT}`;
  const socksProxy = `socks5h://127.0.0.1:${PROXY_PORT}`;
  const noProxy = 'localhost,127.0.0.1,::1';
  return {
    HTTP_PROXY: httpProxy,
    HTTPS_PROXY: httpProxy,
    http_proxy: httpProxy,
    https_proxy: httpProxy,
    ALL_PROXY: socksProxy,
    all_proxy: socksProxy,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
    NODE_USE_ENV_PROXY: '1',
    npm_config_proxy: httpProxy,
    npm_config_https_proxy: httpProxy,
    npm_config_noproxy: noProxy,
    YARN_HTTP_PROXY: httpProxy,
    YARN_HTTPS_PROXY: httpProxy,
    CARGO_HTTP_PROXY: httpProxy,
    PIP_PROXY: httpProxy,
  };
}
