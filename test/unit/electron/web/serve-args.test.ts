/** The serve command line: the four flags, strictly; anything else is a clear error. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../../../electron/web/serve-args.js';
import { dataDir } from '../../../../scripts/data-dir.js';

describe('parseServeArgs', () => {
  it('reads --port, --host, --data-dir and --open, folders against where npm was run', () => {
    expect(
      parseServeArgs(['--port', '8080', '--host', '192.168.1.5', '--data-dir', 'd', '--open', '/w'], '/home/me'),
    ).toEqual({
      port: 8080,
      host: '192.168.1.5',
      dataDir: '/home/me/d',
      open: '/w',
    });
    expect(parseServeArgs(['--open', '../proj'], '/home/me/src')).toEqual({ open: '/home/me/proj' });
    expect(parseServeArgs([], '/')).toEqual({});
  });

  it('reads --agent-model-endpoint as a loopback port, and refuses any other host in words', () => {
    expect(parseServeArgs(['--agent-model-endpoint', 'http://127.0.0.1:4000'], '/')).toEqual({
      agentModelEndpoint: { port: 4000 },
    });
    expect(() => parseServeArgs(['--agent-model-endpoint', 'http://10.0.0.2:4000'], '/')).toThrow(
      '--agent-model-endpoint: the agents’ model endpoint "http://10.0.0.2:4000" is not on this machine’s loopback',
    );
    expect(() => parseServeArgs(['--agent-model-endpoint'], '/')).toThrow('--agent-model-endpoint needs a value');
  });

  it.each([
    [['--verbose'], 'unknown argument "--verbose"'],
    [['--port'], '--port needs a value'],
    [['--port', '--host', 'x'], '--port needs a value'],
    [['--port', '70000'], '--port must be 0-65535'],
    [['--port', '12ab'], '--port must be 0-65535'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseServeArgs(argv, '/')).toThrow(message);
  });
});

describe('the data folder', () => {
  it('is --data-dir, else GATEHOUSE_HOME, else Electron’s userData folder', () => {
    expect(dataDir('rel', { GATEHOUSE_HOME: '/gh' })).toBe(path.resolve('rel'));
    expect(dataDir(undefined, { GATEHOUSE_HOME: '/gh' })).toBe('/gh');
    expect(dataDir(undefined, { XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/Gatehouse');
  });
});
