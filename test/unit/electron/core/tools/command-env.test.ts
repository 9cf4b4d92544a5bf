import { describe, expect, it } from 'vitest';
import { commandEnv, PROVIDER_KEY_NAMES } from '../../../../../electron/core/tools/command-env.js';

const appEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/someone',
  ANTHROPIC_API_KEY: 'sk-ant-123456789',
  OPENAI_API_KEY: 'sk-openai-123456789',
  OPENROUTER_API_KEY: 'sk-or-123456789',
};

describe('commandEnv', () => {
  it('drops the model providers’ keys and keeps everything else', () => {
    const env = commandEnv(appEnv);
    expect(env).toEqual({ PATH: '/usr/bin:/bin', HOME: '/home/someone' });
    expect(PROVIDER_KEY_NAMES).toEqual(expect.arrayContaining(['ANTHROPIC_API_KEY', 'OPENAI_API_KEY']));
  });

  it('drops any further variable the caller names', () => {
    const env = commandEnv({ ...appEnv, MY_SERVER_TOKEN: 't' }, { secretNames: ['MY_SERVER_TOKEN'] });
    expect(env).not.toHaveProperty('MY_SERVER_TOKEN');
    expect(env).toHaveProperty('HOME');
  });

  it('drops a variable holding a secret value the app holds, whatever its name', () => {
    const secret = 'sk-from-settings-abcdef';
    const env = commandEnv(
      { PATH: '/bin', COPY: secret, PADDED: ` ${secret}\n`, HEADER: `Bearer ${secret}`, OTHER: 'harmless' },
      { secretValues: [secret] },
    );
    expect(env).toEqual({ PATH: '/bin', OTHER: 'harmless' });
  });

  it('matches a short secret value only whole, and ignores an empty one', () => {
    const env = commandEnv({ A: 'abc', B: 'xabcx', C: '' }, { secretValues: ['abc', ''] });
    expect(env).toEqual({ B: 'xabcx', C: '' });
  });

  it('leaves the environment it was given untouched', () => {
    const given = { ...appEnv };
    commandEnv(given, { secretValues: ['/usr/bin:/bin'] });
    expect(given).toEqual(appEnv);
  });
});
