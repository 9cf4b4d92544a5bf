import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ConnectionTest, ModelConfig, Reply, SettingsView } from '../../../../../shared/contract';
import { SettingsDialog } from '../../../../../renderer/src/components/settings/SettingsDialog';
import { createAppStore } from '../../../../../renderer/src/store/app-store';
import { SETTINGS_NONE } from '../../fake-api';
import { memoryStorage, renderFrame } from '../../render-frame';

const ollama: ModelConfig = { provider: 'openai-compatible', modelId: 'llama3', baseURL: 'http://127.0.0.1:11434/v1' };

function settingsWith(model: ModelConfig | null) {
  const store = createAppStore(memoryStorage());
  store.getState().setSettings({ ...SETTINGS_NONE, model } satisfies SettingsView);
  store.getState().openDialog('settings');
  return renderFrame(<SettingsDialog />, { store });
}

/** Holds settings.test's replies until the test lets each one go. */
function heldReplies(frame: ReturnType<typeof settingsWith>) {
  const waiting: ((reply: Reply<ConnectionTest>) => void)[] = [];
  frame.fake.respond('settings.test', () => new Promise((resolve) => waiting.push(resolve)));
  return {
    count: () => waiting.length,
    answer(index: number, data: ConnectionTest) {
      waiting[index]!({ ok: true, data });
    },
  };
}

const button = () => screen.getByRole('button', { name: /^(Test connection|Testing…)$/ });
const modelField = () => screen.getByRole('combobox', { name: 'Model id' });

describe('Test connection', () => {
  it('sends the model as the form has it, unsaved, and shows progress until the answer', async () => {
    const frame = settingsWith(ollama);
    const replies = heldReplies(frame);
    await userEvent.clear(modelField());
    await userEvent.type(modelField(), 'qwen2.5');
    await userEvent.click(button());

    expect(frame.fake.requestsOf('settings.test')).toEqual([{ model: { ...ollama, modelId: 'qwen2.5' } }]);
    expect(button()).toHaveTextContent('Testing…');
    expect(button()).toHaveAttribute('aria-busy', 'true');
    expect(button()).toHaveAttribute('aria-disabled', 'true');
    // Focus stays on it while it waits (aria-disabled, not disabled).
    expect(button()).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent('Sending one short request…');
    // A second click while it waits sends nothing more.
    await userEvent.click(button());
    expect(replies.count()).toBe(1);

    replies.answer(0, { outcome: 'works', message: 'Works: qwen2.5 answered.' });
    expect(await screen.findByRole('status')).toHaveTextContent('Works: qwen2.5 answered.');
    expect(button()).toHaveTextContent('Test connection');
    expect(button()).toHaveAttribute('aria-disabled', 'false');
    expect(frame.fake.requestsOf('settings.set')).toEqual([]);
  });

  it('a failure is an alert in the app’s words', async () => {
    const frame = settingsWith(ollama);
    frame.fake.reply('settings.test', {
      outcome: 'unreachable',
      message: 'Server unreachable: http://127.0.0.1:11434/v1 (connect ECONNREFUSED 127.0.0.1:11434).',
    });
    await userEvent.click(button());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Server unreachable: http://127.0.0.1:11434/v1 (connect ECONNREFUSED 127.0.0.1:11434).',
    );
  });

  it('a refused call (a dropped connection) says why, as a failure', async () => {
    const frame = settingsWith(ollama);
    frame.fake.fail('settings.test', 'connection lost');
    await userEvent.click(button());
    expect(await screen.findByRole('alert')).toHaveTextContent('connection lost');
  });

  it('an answer goes once the form says something else, and an older test’s answer never shows', async () => {
    const frame = settingsWith(ollama);
    const replies = heldReplies(frame);
    await userEvent.click(button());
    replies.answer(0, { outcome: 'model_not_found', message: 'Model not found: llama3.' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Model not found: llama3.');

    await userEvent.type(modelField(), ':8b');
    expect(screen.queryByRole('alert')).toBeNull();

    // Test, then edit while it waits: its answer is about a form no longer on screen.
    await userEvent.click(button());
    await userEvent.type(modelField(), '-q4');
    expect(button()).toHaveTextContent('Testing…');
    replies.answer(1, { outcome: 'works', message: 'Works: llama3:8b answered.' });
    await userEvent.click(button());
    await userEvent.click(button());
    replies.answer(2, { outcome: 'works', message: 'Works: llama3:8b-q4 answered.' });
    expect(await screen.findByRole('status')).toHaveTextContent('Works: llama3:8b-q4 answered.');
    expect(screen.queryByText('Works: llama3:8b answered.')).toBeNull();
  });

  it('a form the app would refuse says what is wrong, and sends nothing', async () => {
    const frame = settingsWith(null);
    await userEvent.click(button());
    expect(screen.getByRole('alert')).toHaveTextContent('Model id is empty.');
    expect(frame.fake.requestsOf('settings.test')).toEqual([]);
  });
});
