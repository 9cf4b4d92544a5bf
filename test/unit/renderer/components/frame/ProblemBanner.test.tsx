/**
 * The banner that says why no model can run: shown over Gatehouse's own sessions, but not
 * over a session driven by an external agent, which needs no model of Gatehouse's.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProblemBanner } from '../../../../../renderer/src/components/frame/ProblemBanner';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { SETTINGS_NONE } from '../../fake-api';
import { memoryStorage, renderFrame, seedSession } from '../../render-frame';

const NO_MODEL = "No model is configured for Gatehouse's own agent.";

function shown(agent: boolean, problem = NO_MODEL, model: typeof SETTINGS_NONE.model = null) {
  const store = createAppStore(memoryStorage());
  seedSession(store, {
    id: 's',
    ...(agent ? { agent: { id: 'claude-code', label: 'Claude Code', version: '0.101.0' } } : {}),
  });
  store.getState().setSettings({ ...SETTINGS_NONE, model, problem });
  store.getState().openTab('s');
  renderFrame(<ProblemBanner />, { store });
}

describe('the problem banner', () => {
  it('says no model is set over a session of Gatehouse’s own agent', () => {
    shown(false);
    expect(screen.getByRole('status')).toHaveTextContent(NO_MODEL);
  });

  it('says nothing of a missing model over a session an external agent drives', () => {
    shown(true);
    expect(screen.queryByText(NO_MODEL)).toBeNull();
  });

  it('still says any other problem over it (a settings file that cannot be read)', () => {
    shown(true, 'settings.json could not be read', { provider: 'anthropic', modelId: 'claude' });
    expect(screen.getByRole('status')).toHaveTextContent('settings.json could not be read');
  });
});
