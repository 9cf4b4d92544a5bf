/**
 * The model's questions through the window: an option is one click, free text is typed
 * into the question card, and either way the answer reaches the model as the tool result.
 */
import { describe, expect, test } from 'vitest';
import { useWorld } from './harness/e2e-world.js';
import { visible } from './harness/gatehouse-page.js';

const world = useWorld('question');

/** The body of the newest request the model received, as text. */
function lastRequestBody(): string {
  return world.fake.requests.at(-1)?.rawBody ?? '';
}

describe('a question card in the window', () => {
  test('an option button answers with that option', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('option-ws');
    fake.enqueue(
      {
        toolCalls: [
          { name: 'ask', input: { question: 'Which colour should the button be?', options: ['red', 'teal'] } },
        ],
      },
      { text: 'Teal it is.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Pick a colour with me');
    const card = await visible(ui.questionCard(), 'a region "Question"');
    await visible(card.getByText('Which colour should the button be?'), 'the question text');
    await world.shot('question-card');
    await ui.clickArmed(card.getByRole('button', { name: 'teal', exact: true }), 'the option "teal"');
    await visible(ui.page.getByText('Teal it is.'), "the model's text after the answer");
    expect(lastRequestBody()).toContain('teal');
    expect(fake.pending()).toBe(0);
  });

  test('free text typed into the question card answers it', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('free-text-ws');
    fake.enqueue(
      { toolCalls: [{ name: 'ask', input: { question: 'What should the file be called?', options: ['a.txt'] } }] },
      { text: 'Naming it as you said.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Name a file with me');
    const card = await visible(ui.questionCard(), 'a region "Question"');
    const field = await visible(card.getByRole('textbox'), 'a free-text field in the question card');
    await field.fill('release-notes-2026.md');
    const submit = card.getByRole('button', { name: /^(answer|send|reply|submit)/i });
    await (await visible(submit, 'a button submitting the free-text answer (Answer / Send / Reply / Submit)')).click();
    await visible(ui.page.getByText('Naming it as you said.'), "the model's text after the answer");
    expect(lastRequestBody()).toContain('release-notes-2026.md');
    expect(fake.pending()).toBe(0);
  });
});
