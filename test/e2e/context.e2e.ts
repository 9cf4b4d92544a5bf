/**
 * The model's context in the window: a turn that outgrows the model's window is
 * summarised by itself and the transcript says where; the meter and "What the model
 * sees" show the next request; Compact now summarises on request.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { RecordedRequest } from '../fake-model/server.js';
import { useWorld } from './harness/e2e-world.js';
import { visible } from './harness/gatehouse-page.js';

const world = useWorld('context');
const SLICE = 32 * 1024;

const isSummary = (r: RecordedRequest) => r.rawBody.includes('write a summary of this session so far');

async function bigFile(dir: string, slices: number): Promise<void> {
  const lines: string[] = [];
  for (let i = 0, size = 0; size < slices * SLICE; i++) {
    const line = `${i.toString(36).padStart(5, '0')} the quick brown fox ${(i * 7919) % 104729} jumps\n`;
    lines.push(line);
    size += line.length;
  }
  await fs.writeFile(path.join(dir, 'big.txt'), lines.join(''));
}

describe('the context in the window', () => {
  test('a turn that outgrows the window is summarised by itself, and the transcript shows where', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('outgrow-ws');
    await bigFile(ws, 12);
    let step = 0;
    fake.setResponder((r) => {
      if (isSummary(r))
        return { text: 'Summary: the user asked to read big.txt; slices 1 to 6 were read and looked fine.' };
      step++;
      if (step === 7) fake.setContextWindow(40_000);
      if (step > 12) return { text: 'Read all of big.txt.' };
      return {
        text: `Reading slice ${step}.`,
        toolCalls: [{ name: 'read_file', input: { path: 'big.txt', offset: (step - 1) * SLICE } }],
      };
    });
    try {
      await ui.openWorkspace(ws);
      await ui.send('Read big.txt to the end');
      await visible(ui.page.getByText('Read all of big.txt.'), "the model's last words");
      await visible(
        ui.page.getByText(/The provider said this model’s window is 40k tokens/),
        'the learned-window divider',
      );
      const summary = await visible(
        ui.page.getByRole('button', { name: /History summarised: .* the provider said the conversation was too long/ }),
        'the summary divider',
      );
      await summary.click();
      await visible(ui.page.getByLabel('Summary the model sees'), 'the summary text');
      expect(await ui.page.getByLabel('Summary the model sees').textContent()).toContain('slices 1 to 6 were read');
      await world.shot('compaction');
      expect(fake.requests.filter((r) => r.refused === 'context-window')).toHaveLength(1);
    } finally {
      fake.setResponder(undefined);
      fake.setContextWindow(undefined);
    }
  });

  test('the meter opens What the model sees, and Compact now summarises with the instructions', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('compact-now-ws');
    await bigFile(ws, 3);
    fake.enqueue(
      { toolCalls: [{ name: 'read_file', input: { path: 'big.txt' } }] },
      { toolCalls: [{ name: 'read_file', input: { path: 'big.txt', offset: SLICE } }] },
      { text: 'Two slices read.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Read two slices of big.txt');
    await visible(ui.page.getByText('Two slices read.'), "the model's answer");
    const meter = await visible(ui.page.getByRole('button', { name: /^Context: / }), 'the context meter');
    await meter.click();
    const dialog = await visible(ui.page.getByRole('dialog', { name: 'What the model sees' }), 'the dialog');
    await visible(dialog.getByRole('list', { name: 'Parts of the next request' }), 'the parts list');
    await visible(dialog.getByText('read_file result').first(), 'a read_file result part');
    await world.shot('what-the-model-sees');
    fake.setResponder((r) => (isSummary(r) ? { text: 'Summary: two slices of big.txt were read.' } : undefined));
    try {
      await dialog.getByLabel('What should the summary keep? (optional)').fill('the slice offsets');
      await dialog.getByRole('button', { name: 'Compact now' }).click();
      await visible(dialog.getByText(/History summarised: .* tokens\./), 'the result of Compact now');
      expect(fake.requests.filter(isSummary).at(-1)?.rawBody).toContain('the slice offsets');
      await world.shot('compacted');
    } finally {
      fake.setResponder(undefined);
    }
  });
});
