/**
 * Renders the MCP harness (test/unit/renderer/look/mcp.html) in Debian's Chromium, light
 * and dark, and saves screenshots in test-results/look/: a call card whose tool changed,
 * a server's start card, the transcript's MCP rows and records, and Settings' MCP servers;
 * and prints what axe finds on each (colour contrast in both themes among it).
 *   npx tsx test/look/look-mcp.ts
 */
import path from 'node:path';
import { axeViolations, describeViolations } from '../e2e/harness/axe.js';
import { freshContext } from '../e2e/harness/chromium.js';
import { openLook } from './look-server.js';

const look = await openLook('mcp.html');
const { browser, out, url: base } = look;
try {
  for (const scheme of ['light', 'dark'] as const) {
    const context = await freshContext(browser, { colorScheme: scheme, width: 1280, height: 1000 });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    const shot = async (name: string) => {
      await page.screenshot({ path: path.join(out, `mcp-${name}-${scheme}.png`) });
      console.log(describeViolations(`${name} (${scheme})`, await axeViolations(page)));
    };

    await page.goto(base);
    const call = page.getByRole('region', { name: 'Permission: call github: create_issue' }).first();
    await call.waitFor();
    await page.waitForTimeout(700);
    await shot('frame');
    await page
      .locator('.pinned .card')
      .first()
      .screenshot({ path: path.join(out, `mcp-call-card-${scheme}.png`) });
    await page.getByRole('button', { name: /^github · create_issue/ }).click();
    await page.getByRole('button', { name: /start MCP server files/ }).click();
    await page.waitForTimeout(300);
    await page.getByRole('log', { name: 'Transcript' }).evaluate((el) => el.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await shot('transcript');

    await page.goto(`${base}?card=server`);
    await page.getByRole('region', { name: 'Permission: start MCP server db' }).first().waitFor();
    await page.waitForTimeout(700);
    await page
      .locator('.pinned .card')
      .first()
      .screenshot({ path: path.join(out, `mcp-server-card-${scheme}.png`) });
    console.log(describeViolations(`server card (${scheme})`, await axeViolations(page)));

    await page.goto(`${base}?settings=1`);
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('heading', { name: 'files', level: 4 }).waitFor();
    await dialog.getByRole('region', { name: 'MCP servers' }).scrollIntoViewIfNeeded();
    await dialog.getByText(/Ready · 3 tools/).click();
    await dialog.getByRole('button', { name: 'Restart' }).nth(1).click();
    await dialog.getByRole('alert').waitFor();
    await dialog.getByRole('region', { name: 'MCP servers' }).screenshot({
      path: path.join(out, `mcp-settings-${scheme}.png`),
    });
    console.log(describeViolations(`settings (${scheme})`, await axeViolations(page)));
    await page.goto(`${base}?settings=1&empty=1`);
    await dialog.getByText('This session has no MCP servers.').waitFor();
    await dialog.getByRole('region', { name: 'MCP servers' }).screenshot({
      path: path.join(out, `mcp-settings-empty-${scheme}.png`),
    });
    await context.close();
  }
} finally {
  await look.close();
}
console.log(`screenshots in ${out}`);
