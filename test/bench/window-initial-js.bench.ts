/**
 * The JavaScript the window ships before any code block appears, gzipped (each file with
 * zlib, as a server would send it), and a check that the syntax highlighter is loaded
 * lazily: no script of the first load contains highlight.js, and one that does is fetched
 * once the model's reply shows a code block. Through the real web host in Chromium. Each
 * first-load file is broken down by package from its source map.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Response } from 'playwright-core';
import { startFakeModel } from '../fake-model/server.js';
import { fakeModelConfig } from '../e2e/harness/temp-folders.js';
import { visible } from '../e2e/harness/gatehouse-page.js';
import { REPO_ROOT } from '../e2e/harness/repo-root.js';
import { bundleShares } from './window/bundle-shares.js';
import { startWindowRig } from './window/window-rig.js';

const KiB = 1024;

interface Script {
  url: string;
  bytes: number;
  gzipped: number;
  highlighter: boolean;
}

/**
 * highlight.js's core: an API name and a message of its own that survive minifying (the
 * app's loader calls registerLanguage, so that name alone would point at the app's chunk).
 */
function isHighlighter(text: string): boolean {
  return text.includes('highlightElement') && text.includes('could not be registered');
}

async function scriptOf(response: Response): Promise<Script | null> {
  const type = response.headers()['content-type'] ?? '';
  if (!/javascript/.test(type) && !response.url().split('?')[0]!.endsWith('.js')) return null;
  const body = await response.body().catch(() => null);
  if (!body) return null;
  return {
    url: new URL(response.url()).pathname,
    bytes: body.length,
    gzipped: gzipSync(body).length,
    highlighter: isHighlighter(body.toString('utf8')),
  };
}

const fake = await startFakeModel({ keepBodies: false });
const rig = await startWindowRig({ model: fakeModelConfig(fake.openaiBaseURL), deferLoad: true });
try {
  const pending: Promise<Script | null>[] = [];
  rig.ui.page.on('response', (r) => pending.push(scriptOf(r)));
  await rig.ui.goto(rig.host.url);
  await rig.ui.page.waitForLoadState('networkidle');
  const initial = (await Promise.all(pending.splice(0))).filter((s): s is Script => s !== null);

  const ws = await rig.folders.workspace('code-ws');
  fake.enqueue({
    text: 'Here is the fix:\n\n```ts\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n```\n',
  });
  await rig.ui.openWorkspace(ws);
  await rig.ui.send('Show me some code');
  // Print the first-load figures even when the reply's code block never shows up.
  const codeBlock = await visible(rig.ui.page.locator('pre code'), 'a code block (pre code) in the reply', 30_000).then(
    () => true,
    (err: unknown) => {
      console.log(`NO CODE BLOCK: ${(err as Error).message.split('\n')[0]}`);
      return false;
    },
  );
  // networkidle was reached once already; wait for the highlighted tokens themselves.
  const highlighted = await visible(
    rig.ui.page.locator('pre code [class*="hljs-"]'),
    'highlighted tokens',
    30_000,
  ).then(
    () => true,
    () => false,
  );
  const later = (await Promise.all(pending.splice(0))).filter((s): s is Script => s !== null);

  const sum = (list: Script[], key: 'bytes' | 'gzipped') => list.reduce((n, s) => n + s[key], 0);
  console.log(
    `initial JS: ${initial.length} files, ${(sum(initial, 'bytes') / KiB).toFixed(1)} KiB raw, ${(sum(initial, 'gzipped') / KiB).toFixed(1)} KiB gzipped`,
  );
  for (const s of initial) {
    console.log(`  ${s.url}: ${(s.gzipped / KiB).toFixed(1)} KiB gzipped${s.highlighter ? ' (HIGHLIGHTER)' : ''}`);
    const shares = await bundleShares(path.join(REPO_ROOT, 'out', 'renderer', s.url)).catch(() => null);
    if (!shares) continue;
    const top = [...shares.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
    console.log(
      `    minified bytes by package: ${top.map(([name, bytes]) => `${name} ${(bytes / KiB).toFixed(0)} KiB (${((100 * bytes) / s.bytes).toFixed(0)}%)`).join(', ')}`,
    );
  }
  const eager = initial.filter((s) => s.highlighter);
  const lazy = later.filter((s) => s.highlighter);
  console.log(
    `highlighter in the first load: ${eager.length === 0 ? 'no' : `YES (${eager.map((s) => s.url).join(', ')})`}; ` +
      `fetched after the code block${codeBlock ? '' : ' (which never rendered)'}: ${lazy.length > 0 ? lazy.map((s) => `${s.url} ${(s.gzipped / KiB).toFixed(1)} KiB gzipped`).join(', ') : 'NO'}; ` +
      `tokens highlighted: ${highlighted ? 'yes' : 'NO'}; lazy loading ${eager.length === 0 && lazy.length > 0 ? 'MEETS' : 'MISSES'}`,
  );
  console.log(
    `JS fetched after the code block in all: ${later.length} files, ${(sum(later, 'gzipped') / KiB).toFixed(1)} KiB gzipped`,
  );
} finally {
  await rig.close();
  await fake.close();
}
