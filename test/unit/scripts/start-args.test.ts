/** npm start's arguments: an optional folder, made absolute against where npm was run. */
import { describe, expect, it } from 'vitest';
import { parseStartArgs } from '../../../scripts/start-args.js';

describe('npm start arguments', () => {
  it('takes no arguments, a folder, and a data folder, resolved against the caller', () => {
    expect(parseStartArgs([], '/home/me')).toEqual({});
    expect(parseStartArgs(['proj'], '/home/me')).toEqual({ folder: '/home/me/proj' });
    expect(parseStartArgs(['/abs', '--data-dir', 'd'], '/home/me')).toEqual({ folder: '/abs', dataDir: '/home/me/d' });
  });

  it('takes --no-sandbox, for Electron, before or after the folder', () => {
    expect(parseStartArgs(['--no-sandbox'], '/home/me')).toEqual({ noSandbox: true });
    expect(parseStartArgs(['proj', '--no-sandbox'], '/home/me')).toEqual({ folder: '/home/me/proj', noSandbox: true });
  });

  it.each([
    [['--port', '1'], 'unexpected argument "--port"'],
    [['a', 'b'], 'unexpected argument "b"'],
    [['--data-dir'], '--data-dir needs a folder'],
  ])('refuses %j with a clear error', (argv, message) => {
    expect(() => parseStartArgs(argv, '/')).toThrow(message);
  });
});
