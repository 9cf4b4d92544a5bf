/**
 * The window as a person uses it, through the agreed accessible names only (UI.md card
 * rule 7 and the names the engineers agreed on). When a name is missing the wait fails
 * with a message that says which name the spec looked for.
 */
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { waitUntil } from './wait-until.js';

export const UI_TIMEOUT_MS = 30_000;

export type CardAnswerButton = 'Allow once' | 'Allow for this session' | 'Deny';

/** Waits until the locator is visible, or fails saying what was looked for. */
export async function visible(locator: Locator, what: string, timeout = UI_TIMEOUT_MS): Promise<Locator> {
  try {
    await locator.first().waitFor({ state: 'visible', timeout });
  } catch (err) {
    throw new Error(`expected to see ${what} within ${timeout / 1000} s: ${(err as Error).message.split('\n')[0]}`, {
      cause: err,
    });
  }
  return locator.first();
}

export class GatehousePage {
  constructor(readonly page: Page) {}

  async goto(url: string): Promise<void> {
    await this.page.goto(url);
    await visible(this.sidebar(), 'the sidebar (nav "Sessions")');
  }

  sidebar(): Locator {
    return this.page.getByRole('navigation', { name: 'Sessions' });
  }

  tabs(): Locator {
    return this.page.getByRole('tablist').getByRole('tab');
  }

  composer(): Locator {
    return this.page.getByRole('textbox', { name: 'Message', exact: true });
  }

  waitingList(): Locator {
    return this.page.getByRole('list', { name: 'Waiting for you' });
  }

  /** Ctrl+O, the folder's path typed into the dialog, Enter: a new session's tab opens. */
  async openWorkspace(folder: string): Promise<void> {
    const before = await this.tabs().count();
    await this.page.keyboard.press('Control+o');
    const dialog = await visible(this.page.getByRole('dialog'), 'the open-folder dialog after Ctrl+O');
    const field = await visible(
      dialog.getByRole('textbox').or(dialog.getByRole('combobox', { name: 'Folder' })),
      'a text field for the folder path in the open-folder dialog',
    );
    await field.fill(folder);
    await field.press('Enter');
    await waitUntil(
      () => this.tabs().count(),
      (n) => n > before,
      `a new tab after opening ${folder}`,
    );
    await visible(this.composer(), 'the composer (textbox "Message") of the new session');
  }

  /** Types into the composer and clicks Send. */
  async send(text: string): Promise<void> {
    const composer = await visible(this.composer(), 'the composer (textbox "Message")');
    await composer.fill(text);
    const send = this.page.getByRole('button', { name: 'Send', exact: true });
    await waitUntil(() => send.isEnabled(), Boolean, 'Send enabled');
    await send.click();
  }

  /** Every card region with this exact label (the pinned card, and its copy in the transcript). */
  cardRegions(label: string | RegExp): Locator {
    return this.page.getByRole('region', { name: label, exact: true });
  }

  /** The card with this label that can still be answered (it has its three buttons). */
  openCard(label: string | RegExp): Locator {
    return this.cardRegions(label).filter({ has: this.page.getByRole('button', { name: 'Allow once', exact: true }) });
  }

  async waitForCard(label: string | RegExp): Promise<Locator> {
    return visible(this.openCard(label), `an open card, region "${label}", with its "Allow once" button`);
  }

  /** Clicks an answer once the card is armed (answers are disarmed for 0.5 s after it appears). */
  async answer(card: Locator, button: CardAnswerButton): Promise<void> {
    await this.clickArmed(
      card.getByRole('button', { name: button, exact: true }),
      `the "${button}" button on the card`,
    );
  }

  /** Clicks a button once it is enabled (disabled or aria-disabled while a card arms). */
  async clickArmed(button: Locator, what: string): Promise<void> {
    const target = await visible(button, what);
    await waitUntil(
      () => target.evaluate((el) => !el.hasAttribute('disabled') && el.getAttribute('aria-disabled') !== 'true'),
      Boolean,
      `${what} armed`,
    );
    await target.click();
  }

  /** Resolves once no card with this label can be answered any more. */
  async cardClosed(label: string | RegExp): Promise<void> {
    await waitUntil(
      () => this.openCard(label).count(),
      (n) => n === 0,
      `card "${label}" closed`,
    );
  }

  questionCard(): Locator {
    return this.page.getByRole('region', { name: 'Question', exact: true });
  }

  /**
   * Brings a session forward after a reload: its tab when the tabs were restored, else its
   * entry in the waiting list (which must hold every open card).
   */
  async focusWaitingSession(text: string): Promise<void> {
    const item = this.waitingList().getByRole('listitem').filter({ hasText: text });
    await visible(this.tabs().filter({ hasText: text }).or(item), `a tab or a waiting item naming "${text}"`);
    if ((await this.tabs().filter({ hasText: text }).count()) > 0) await this.selectTab(text);
    else await item.first().click();
  }

  /** Clicks the tab whose name contains this text. */
  async selectTab(text: string): Promise<Locator> {
    const tab = await visible(this.tabs().filter({ hasText: text }), `a tab named with "${text}"`);
    await tab.click();
    await waitUntil(
      () => tab.getAttribute('aria-selected'),
      (v) => v === 'true',
      `tab "${text}" selected`,
    );
    return tab;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The label of a write card for a file in a workspace (UI.md card rule 7): "Permission: write
 * PATH", with PATH relative to the workspace (as the cards show it) or absolute.
 */
export function writeCardLabel(workspace: string, relative: string): RegExp {
  const absolute = path.join(workspace, relative);
  return new RegExp(`^Permission: write (${escapeRegExp(relative)}|${escapeRegExp(absolute)})$`);
}

/** The label of a command card: "Permission: run ARGV0…" (whatever follows argv[0]). */
export function runCardLabel(argv0: string): RegExp {
  return new RegExp(`^Permission: run ${escapeRegExp(argv0)}`);
}
