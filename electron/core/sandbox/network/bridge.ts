/**
 * The bridge between a sandbox's own network namespace and its proxy door, as pure
 * functions of the door: the bwrap mounts that show the door's two Unix sockets inside,
 * the argv that starts two socat listeners on the sandbox's loopback (127.0.0.1:3128 for
 * HTTP, :1080 for SOCKS5) before the command, and the environment that points tools at
 * them. The same design as @anthropic-ai/sandbox-runtime, with two differences: the
 * command starts only once both listeners are up (no race on the first connection), and
 * its argv is passed to `exec "$@"` untouched, never through a shell's parser. socat
 * needs a Unix socket of its own, so the sandbox's seccomp program cannot cover it: for a
 * command with network, the program is sealed over the command alone (seal.ts).
 */
import type { ProxyDoor } from './network-proxy.js';

/** Inside the sandbox's private /tmp, so the mount points land in the run's own folder. */
export const BRIDGE_DIR = '/tmp/.gatehouse-net';
export const HTTP_SOCKET_INSIDE = `${BRIDGE_DIR}/http.sock`;
export const SOCKS_SOCKET_INSIDE = `${BRIDGE_DIR}/socks.sock`;
export const HTTP_PROXY_PORT = 3128;
export const SOCKS_PROXY_PORT = 1080;

/** Polls that spin before the wait backs off: socat takes a few milliseconds to load its libraries and listen. */
const SPIN_POLLS = 50;
/** How long the command waits for the listeners before giving up: then 150 pauses of 10 ms, 1.5 s or more. */
const MAX_POLLS = SPIN_POLLS + 150;
/** The exit code when the bridge did not come up (the command never started). */
export const BRIDGE_FAILED_EXIT = 125;

/**
 * bwrap arguments that show the door's sockets at fixed paths inside. Read-only: connect()
 * works through a read-only mount, and the command cannot replace the socket. They must
 * come after the private /tmp is mounted (`--bind <privateTmp> /tmp`), or it would cover them.
 */
export function bridgeMounts(door: Pick<ProxyDoor, 'httpSocket' | 'socksSocket'>): string[] {
  return ['--ro-bind', door.httpSocket, HTTP_SOCKET_INSIDE, '--ro-bind', door.socksSocket, SOCKS_SOCKET_INSIDE];
}

/** /proc/net/tcp spells 127.0.0.1:port as 0100007F:<port in hex>, and a listening socket's state as 0A. */
function procNetAddress(port: number): string {
  return `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The script run by /bin/sh before the command. Its only inputs are its positional
 * parameters: $1 is socat's path, the rest is the command's argv. The listeners are
 * started in a subshell that exits at once, so they belong to the sandbox's PID 1 rather
 * than to the command (which might wait for children it never started) and hold none of
 * its output pipes; backlog=128 because socat's own is 5, too few for a package
 * manager's burst of parallel connections (a dropped SYN costs a second). The wait reads
 * /proc/net/tcp with shell builtins, so a poll forks nothing; the sandbox's network
 * namespace has only these two listeners to find.
 */
const BRIDGE_SCRIPT = [
  'socat=$1',
  'shift',
  'if [ ! -x "$socat" ]; then',
  `  echo "gatehouse: $socat is missing inside the sandbox, so the network bridge cannot start; the command did not run" >&2`,
  `  exit ${BRIDGE_FAILED_EXIT}`,
  'fi',
  '(',
  `  "$socat" TCP4-LISTEN:${HTTP_PROXY_PORT},bind=127.0.0.1,backlog=128,fork,reuseaddr UNIX-CONNECT:${HTTP_SOCKET_INSIDE} &`,
  `  "$socat" TCP4-LISTEN:${SOCKS_PROXY_PORT},bind=127.0.0.1,backlog=128,fork,reuseaddr UNIX-CONNECT:${SOCKS_SOCKET_INSIDE} &`,
  ') </dev/null >/dev/null 2>&1',
  'up() {',
  '  h= s=',
  '  while read -r _ addr _ state _; do',
  '    [ "$state" = 0A ] || continue',
  `    case $addr in ${procNetAddress(HTTP_PROXY_PORT)}) h=1 ;; ${procNetAddress(SOCKS_PROXY_PORT)}) s=1 ;; esac`,
  '  done </proc/net/tcp',
  '  [ "$h$s" = 11 ]',
  '}',
  'n=0',
  'until up; do',
  '  n=$((n + 1))',
  `  if [ $n -gt ${MAX_POLLS} ]; then`,
  `    echo "gatehouse: the network bridge (socat) did not start inside the sandbox; the command did not run" >&2`,
  `    exit ${BRIDGE_FAILED_EXIT}`,
  '  fi',
  `  [ $n -gt ${SPIN_POLLS} ] && sleep 0.01`,
  'done',
  // bash takes a leading "-x" as exec's own option; env does not, and finds the program on PATH as exec would.
  'case $1 in -*) exec /usr/bin/env -- "$@" ;; esac',
  'exec "$@"',
].join('\n');

/**
 * The argv that runs `argv` inside the sandbox once the bridge is up: what comes after
 * bwrap's `--`. The original argv follows as positional parameters, byte for byte.
 */
export function bridgeArgv(argv: readonly string[], socatPath: string): string[] {
  if (argv.length === 0) throw new Error('bridgeArgv needs a command');
  return ['/bin/sh', '-c', BRIDGE_SCRIPT, 'gatehouse-net', socatPath, ...argv];
}

/**
 * The environment that sends common tools through the bridge. curl reads only the
 * lower-case http_proxy; npm reads HTTPS_PROXY but a project's .npmrc would win over it,
 * so npm_config_* are set (the environment outranks .npmrc); cargo hands its own setting
 * to libgit2 for git dependencies; Node's fetch and http follow the variables only with
 * NODE_USE_ENV_PROXY (Node 24). SOCKS URLs say socks5h, so the name, not an address, goes
 * to the proxy: the sandbox has no DNS of its own. NO_PROXY keeps the sandbox's own
 * loopback (a test server the command starts) direct.
 */
export function bridgeEnv(): Record<string, string> {
  const httpProxy = `http://127.0.0.1:${HTTP_PROXY_PORT}`;
  const socksProxy = `socks5h://127.0.0.1:${SOCKS_PROXY_PORT}`;
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
