/**
 * UI card rule 7 through the window, with the real bubblewrap: a command card says in one
 * line what the command can reach, the flags the model asked for are amber warnings before
 * the answers, the record keeps the line, and Settings says commands run confined. Each
 * screen is photographed light and dark, and axe checks the warnings' contrast.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Locator } from 'playwright-core';
import { useWorld } from './harness/e2e-world.js';
import { armed, shotsAndAxe } from './harness/light-and-dark.js';
import { runCardLabel, visible } from './harness/gatehouse-page.js';

const world = useWorld('command-sandbox');

const notes = (card: Locator) => card.getByRole('note').allTextContents();

describe('a command card says what the command can reach', () => {
  test('confined: one quiet line (writes, what it sees of home, no network) and the toolchains it sees; the record keeps it', async () => {
    const { ui, fake } = world;
    // A secret store and a toolchain in the host's home: the card shows the one, never the other.
    await fs.mkdir(path.join(world.folders.home, '.ssh'), { recursive: true });
    await fs.mkdir(path.join(world.folders.home, '.cargo', 'bin'), { recursive: true });
    const ws = await world.folders.workspace('confined-ws');
    fake.enqueue(
      { toolCalls: [{ name: 'run', input: { argv: ['sh', '-c', 'echo confined > marker'] } }] },
      { text: 'Wrote the marker.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Write the marker');
    const card = await ui.waitForCard(runCardLabel('sh'));
    const line = await visible(card.getByText(/^Confined:/), 'the sandbox line "Confined: …"');
    const words = (await line.evaluate((el) => el.closest('p')?.textContent)) ?? '';
    expect(words).toContain(`writes only in ${ws} (not .git, .gatehouse, .claude)`);
    expect(words).toContain('sees the system and your toolchains, not the rest of your home');
    expect(words).toContain('no network');
    expect(words).not.toContain('.ssh');
    // What it sees of the home folder, under the home settings.get names, shown as ~.
    const shown = card.locator('.card-sandbox-shown');
    await shown.getByText(/What it sees of your home folder/).click();
    expect(await shown.locator('li').allTextContents()).toEqual(['~/.cargo/bin']);
    expect(await notes(card)).toEqual([]);
    await armed(card);
    await shotsAndAxe(world, 'confined-card');

    await ui.answer(card, 'Allow once');
    await visible(ui.page.getByText('Wrote the marker.'), "the model's text after the run");
    expect(await fs.readFile(path.join(ws, 'marker'), 'utf8')).toBe('confined\n');
    const record = ui.page.locator('.card-record-sandbox');
    await visible(record, "the record's sandbox line");
    expect(await record.textContent()).toContain('Confined: writes only in');
    await shotsAndAxe(world, 'confined-record');
    expect(fake.pending()).toBe(0);
  });

  test('network: true is an amber warning before the answers, and the line says it goes through the proxy', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('network-ws');
    fake.enqueue(
      { toolCalls: [{ name: 'run', input: { argv: ['npm', 'install'], network: true } }] },
      { text: 'Not installing, then.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Install the packages');
    const card = await ui.waitForCard(runCardLabel('npm'));
    await visible(card.getByRole('note').filter({ hasText: 'asks for network' }), 'a note "asks for network"');
    expect(await notes(card)).toEqual(['⚠Warning: this command asks for network (any domain)']);
    const words = await card.getByText(/^Confined:/).evaluate((el) => el.closest('p')?.textContent);
    expect(words).toContain("network to any domain through Gatehouse's proxy");
    // Before the answers, in reading order and on screen.
    const warning = await card.getByRole('note').boundingBox();
    const allow = await card.getByRole('button', { name: 'Allow once', exact: true }).boundingBox();
    expect(warning && allow && warning.y + warning.height <= allow.y).toBe(true);
    await armed(card);
    // Answered whatever the check says, so the next test does not start under this card.
    await shotsAndAxe(world, 'network-card').finally(() => ui.answer(card, 'Deny'));
    await visible(ui.page.getByText('Not installing, then.'), "the model's text after the denial");
    expect(fake.pending()).toBe(0);
  });

  test('unconfined: true shows why it runs unconfined and the warning, both amber, and no "Confined:" line', async () => {
    const { ui, fake } = world;
    const ws = await world.folders.workspace('unconfined-ws');
    fake.enqueue(
      { toolCalls: [{ name: 'run', input: { argv: ['make', 'deploy'], unconfined: true } }] },
      { text: 'Not deploying, then.' },
    );
    await ui.openWorkspace(ws);
    await ui.send('Deploy it');
    const card = await ui.waitForCard(runCardLabel('make'));
    await visible(
      card.getByRole('note').filter({ hasText: 'asks to run unconfined' }),
      'a note "asks to run unconfined"',
    );
    expect(await notes(card)).toEqual([
      '⚠Unconfined: the call asked to run without the sandbox',
      '⚠Warning: this command asks to run unconfined',
    ]);
    expect(await card.getByText(/^Confined:/).count()).toBe(0);
    await armed(card);
    await shotsAndAxe(world, 'unconfined-card').finally(() => ui.answer(card, 'Deny'));
    await visible(ui.page.getByText('Not deploying, then.'), "the model's text after the denial");
    const record = ui.page.locator('.card-record-sandbox').filter({ hasText: 'Unconfined' });
    expect(await record.textContent()).toBe(
      '⚠ Unconfined: the call asked to run without the sandbox · asks to run unconfined',
    );
    await shotsAndAxe(world, 'unconfined-record');
    expect(fake.pending()).toBe(0);
  });
});

describe('Settings: Commands', () => {
  test('says commands run in a sandbox here, and the refuse setting is saved', async () => {
    const { ui } = world;
    await ui.page.getByRole('button', { name: 'Settings' }).click();
    const dialog = await visible(ui.page.getByRole('dialog'), 'the Settings dialog');
    const commands = await visible(dialog.getByRole('group', { name: 'Commands' }), 'a group "Commands"');
    await visible(commands.getByText(/Commands run in a sandbox \(bubblewrap\)/), 'the words for a working sandbox');
    const refuse = commands.getByRole('checkbox', { name: 'Refuse commands that cannot be confined' });
    expect(await refuse.isChecked()).toBe(false);
    await refuse.click();
    await expect.poll(() => refuse.isChecked()).toBe(true);
    await expect
      .poll(async () => JSON.parse(await fs.readFile(path.join(world.folders.dataDir, 'settings.json'), 'utf8')))
      .toMatchObject({ refuseUnconfined: true });
    // What commands see of the home folder: the toolchains found, then a place the person adds.
    await fs.mkdir(path.join(world.folders.home, '.sdkman'), { recursive: true });
    await commands.getByRole('textbox', { name: 'Also show' }).fill('~/.sdkman');
    await commands.getByRole('button', { name: 'Add' }).click();
    const added = commands.getByRole('list', { name: 'Places you added' });
    await visible(added.getByText('~/.sdkman'), 'the added place listed as ~/.sdkman');
    await expect
      .poll(async () => JSON.parse(await fs.readFile(path.join(world.folders.dataDir, 'settings.json'), 'utf8')))
      .toMatchObject({ shownPlaces: [path.join(world.folders.home, '.sdkman')] });
    await commands.getByRole('textbox', { name: 'Also show' }).fill('~');
    await commands.getByRole('button', { name: 'Add' }).click();
    await visible(commands.getByRole('alert').filter({ hasText: 'holds your whole home folder' }), 'the refusal of ~');
    await commands.scrollIntoViewIfNeeded();
    await shotsAndAxe(world, 'settings-commands');
    await refuse.click();
    await expect.poll(() => refuse.isChecked()).toBe(false);
    await ui.page.keyboard.press('Escape');
  });
});
