import { describe, expect, it } from 'vitest';
import {
  HTTP_SOCKET_INSIDE,
  SOCKS_SOCKET_INSIDE,
  bridgeArgv,
  bridgeEnv,
  bridgeMounts,
} from '../../../../../../electron/core/sandbox/network/bridge.js';
import { INSTALL_SOCAT, findSocat } from '../../../../../../electron/core/sandbox/network/socat.js';

describe('bridgeMounts', () => {
  it("shows the door's two sockets read-only at fixed short paths in the private /tmp", () => {
    expect(
      bridgeMounts({ httpSocket: '/tmp/gatehouse-net-x/0.http', socksSocket: '/tmp/gatehouse-net-x/0.socks' }),
    ).toEqual([
      '--ro-bind',
      '/tmp/gatehouse-net-x/0.http',
      '/tmp/.gatehouse-net/http.sock',
      '--ro-bind',
      '/tmp/gatehouse-net-x/0.socks',
      '/tmp/.gatehouse-net/socks.sock',
    ]);
    expect([HTTP_SOCKET_INSIDE, SOCKS_SOCKET_INSIDE]).toEqual([
      '/tmp/.gatehouse-net/http.sock',
      '/tmp/.gatehouse-net/socks.sock',
    ]);
  });
});

describe('bridgeArgv', () => {
  const argv = ['sh', '-c', 'echo "$HOME" | tr a b; `id`', '', "it's"];
  const bridged = bridgeArgv(argv, '/usr/bin/socat');

  it('runs a fixed script with socat and the argv as its positional parameters, never inside the script', () => {
    expect(bridged.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(bridged.slice(3)).toEqual(['gatehouse-net', '/usr/bin/socat', ...argv]);
    expect(bridgeArgv(['ls'], '/opt/x y/socat')[2]).toBe(bridged[2]);
  });

  it('starts both listeners on the loopback, waits for them in /proc/net/tcp, then execs "$@"', () => {
    const script = bridged[2] as string;
    expect(script).toContain(
      'TCP4-LISTEN:3128,bind=127.0.0.1,backlog=128,fork,reuseaddr UNIX-CONNECT:/tmp/.gatehouse-net/http.sock',
    );
    expect(script).toContain(
      'TCP4-LISTEN:1080,bind=127.0.0.1,backlog=128,fork,reuseaddr UNIX-CONNECT:/tmp/.gatehouse-net/socks.sock',
    );
    expect(script).toContain('0100007F:0C38) h=1');
    expect(script).toContain('0100007F:0438) s=1');
    expect(script).toContain('</proc/net/tcp');
    expect(script.trimEnd().endsWith('exec "$@"')).toBe(true);
  });

  it('refuses an empty argv', () => {
    expect(() => bridgeArgv([], '/usr/bin/socat')).toThrow(/needs a command/);
  });
});

describe('bridgeEnv', () => {
  it('points HTTP(S) at the HTTP listener, ALL_PROXY at SOCKS with remote DNS, and keeps loopback direct', () => {
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
    expect(env.ALL_PROXY).toBe('socks5h://127.0.0.1:1080');
    expect(env.all_proxy).toBe('socks5h://127.0.0.1:1080');
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
