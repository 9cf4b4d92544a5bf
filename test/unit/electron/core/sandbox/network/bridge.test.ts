import { describe, expect, it } from 'vitest';
import {
  DOOR_SOCKET_INSIDE,
  PROXY_LISTENER,
  bridgeArgv,
  bridgeEnv,
  bridgeMounts,
  listenersFor,
} from '../../../../../../electron/core/sandbox/network/bridge.js';
import { INSTALL_SOCAT, findSocat } from '../../../../../../electron/core/sandbox/network/socat.js';

describe('bridgeMounts', () => {
  it("shows the door's socket read-only at a fixed short path, in a fresh folder of the bridge's own", () => {
    expect(bridgeMounts({ socket: '/tmp/gatehouse-net-x/0.sock' })).toEqual([
      '--tmpfs',
      '/tmp/.gatehouse-net',
      '--ro-bind',
      '/tmp/gatehouse-net-x/0.sock',
      '/tmp/.gatehouse-net/door.sock',
    ]);
    expect(DOOR_SOCKET_INSIDE).toBe('/tmp/.gatehouse-net/door.sock');
  });
});

describe('bridgeArgv', () => {
  const argv = ['sh', '-c', 'echo "$HOME" | tr a b; `id`', '', "it's"];
  const bridged = bridgeArgv(argv, '/usr/bin/socat');

  it('runs a fixed script with socat, a count of listeners and the argv as its positional parameters, never inside the script', () => {
    expect(bridged.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(bridged.slice(3)).toEqual([
      'gatehouse-net',
      '/usr/bin/socat',
      '1',
      '3128',
      '/tmp/.gatehouse-net/door.sock',
      ...argv,
    ]);
    expect(bridgeArgv(['ls'], '/opt/x y/socat')[2]).toBe(bridged[2]);
    expect(
      bridgeArgv(['ls'], '/usr/bin/socat', [PROXY_LISTENER, { port: 3129, inside: '/tmp/.gatehouse-net/gate.sock' }]),
    ).toEqual([
      '/bin/sh',
      '-c',
      bridged[2],
      'gatehouse-net',
      '/usr/bin/socat',
      '2',
      '3128',
      '/tmp/.gatehouse-net/door.sock',
      '3129',
      '/tmp/.gatehouse-net/gate.sock',
      'ls',
    ]);
  });

  it('starts each listener on the loopback, waits for socat to say it listens, then execs "$@"', () => {
    const script = bridged[2] as string;
    expect(script).toContain(
      '"$socat" -d -d "TCP4-LISTEN:$1,bind=127.0.0.1,backlog=128,fork,reuseaddr" "UNIX-CONNECT:$2" 2>"$pipe"',
    );
    expect(script).toContain('pipe=/tmp/.gatehouse-net/listening-$1');
    expect(script).toContain('mkfifo "$pipe"');
    expect(script).toContain('IFS= read -r said <"$pipe"');
    expect(script).toContain('*" listening on "*) ;;');
    expect(script).not.toContain('/proc/net/tcp');
    expect(script.trimEnd().endsWith('exec "$@"')).toBe(true);
  });

  it('refuses an empty argv', () => {
    expect(() => bridgeArgv([], '/usr/bin/socat')).toThrow(/needs a command/);
  });
});

describe('listenersFor', () => {
  const gate = { name: 'gate', port: 3129, socket: '/d/agents/run/s.sock' };

  it("puts the proxy's listener first when there is a door, then each forward at its socket inside", () => {
    expect(listenersFor(true, [gate])).toEqual([
      { port: 3128, inside: '/tmp/.gatehouse-net/door.sock' },
      { port: 3129, inside: '/tmp/.gatehouse-net/gate.sock' },
    ]);
    expect(listenersFor(false, [gate])).toEqual([{ port: 3129, inside: '/tmp/.gatehouse-net/gate.sock' }]);
    expect(bridgeMounts(null, [gate])).toEqual([
      '--tmpfs',
      '/tmp/.gatehouse-net',
      '--ro-bind',
      '/d/agents/run/s.sock',
      '/tmp/.gatehouse-net/gate.sock',
    ]);
  });

  it('refuses a forward whose name is not a plain word, or whose port or name is taken', () => {
    expect(() => listenersFor(true, [{ ...gate, name: '../x' }])).toThrow(/bad forward name/);
    expect(() => listenersFor(true, [{ ...gate, name: 'door' }])).toThrow(/bad forward name/);
    expect(() => listenersFor(true, [{ ...gate, port: 3128 }])).toThrow(/already taken/);
    expect(() => listenersFor(false, [gate, { ...gate, port: 3130 }])).toThrow(/already taken/);
    expect(() => listenersFor(false, [{ ...gate, port: 0 }])).toThrow(/bad forward port/);
  });
});

describe('bridgeEnv', () => {
  it('points HTTP(S) and ALL_PROXY (SOCKS with remote DNS) at the one listener, and keeps loopback direct', () => {
    const env = bridgeEnv();
    for (const name of [
      'HTTP_PROXY',
      'HTTPS_PROXY',
      'http_proxy',
      'https_proxy',
      'npm_config_https_proxy',
      'CARGO_HTTP_PROXY',
    ]) {
      expect(env[name], name).toBe('http://127.0.0.1:3128');
    }
    expect(env.ALL_PROXY).toBe('socks5h://127.0.0.1:3128');
    expect(env.all_proxy).toBe('socks5h://127.0.0.1:3128');
    expect(env.NO_PROXY).toBe('localhost,127.0.0.1,::1');
    expect(env.NODE_USE_ENV_PROXY).toBe('1');
  });
});

describe('findSocat', () => {
  it('finds socat on an absolute PATH entry, and says what to install when it is missing', async () => {
    expect(await findSocat('relative/bin:/usr/bin:/bin')).toMatch(/\/socat$/);
    expect(await findSocat('/nonexistent')).toBeNull();
    expect(INSTALL_SOCAT).toMatch(/Install socat \(Debian and Ubuntu: sudo apt install socat/);
  });
});
