/**
 * How `npm start` hands the browser its way in without a secret on any command line (SPEC
 * §11; issue 19, item 7). `xdg-open URL` and the browser it starts show their argv to every
 * local user in `ps`, so a code there could be fetched first by someone else. Instead the
 * host writes a small HTML page, mode 0600 in a 0700 folder of the data folder, that sends
 * the browser on to the one-time URL; the browser is opened on the page's path, which grants
 * nothing to whoever cannot read the file. The page goes as soon as its code is spent, after
 * the code's 60 s, and when the host stops; a page a crashed host left is removed at the
 * next start (its code died with that host).
 */
import { randomBytes } from 'node:crypto';
import { promises as fs, rmSync } from 'node:fs';
import path from 'node:path';
import { CODE_LIFETIME_MS } from './one-time-code.js';

/** The data folder's folder of launch pages. */
export const LAUNCH_FOLDER = 'launch';

export class LaunchPages {
  /** Each live page, with the timer that removes it. */
  private readonly live = new Map<string, NodeJS.Timeout>();
  private readonly folder: string;

  constructor(
    dataDir: string,
    private readonly lifetimeMs = CODE_LIFETIME_MS,
  ) {
    this.folder = path.join(dataDir, LAUNCH_FOLDER);
  }

  /** Removes every page a previous run left. */
  async clear(): Promise<void> {
    await fs.rm(this.folder, { recursive: true, force: true });
  }

  /**
   * Writes a page that sends the browser to `urlFor(remove)` and resolves with its path.
   * `urlFor` mints the one-time URL and is handed the page's removal, to call once spent.
   */
  async write(urlFor: (remove: () => void) => string): Promise<string> {
    const file = path.join(this.folder, `open-${randomBytes(9).toString('base64url')}.html`);
    const url = urlFor(() => this.remove(file));
    await this.privateFolder();
    // wx: never through a file or link already there.
    await fs.writeFile(file, launchHtml(url), { mode: 0o600, flag: 'wx' });
    const timer = setTimeout(() => this.remove(file), this.lifetimeMs);
    timer.unref();
    this.live.set(file, timer);
    return file;
  }

  /** Removes every live page (the host is stopping). */
  close(): void {
    for (const file of [...this.live.keys()]) this.remove(file);
  }

  /** At once, so a spent code's page is gone before the redirect is even sent. */
  private remove(file: string): void {
    clearTimeout(this.live.get(file));
    this.live.delete(file);
    try {
      rmSync(file, { force: true });
    } catch {
      // A page that cannot be removed (its folder made read-only) holds a spent or expired
      // code: worth nothing, and not worth failing the redirect or the host over.
    }
  }

  /** The folder, 0700 and a real folder (not a link someone put there), made if missing. */
  private async privateFolder(): Promise<void> {
    await fs.mkdir(this.folder, { recursive: true, mode: 0o700 });
    const stat = await fs.lstat(this.folder);
    if (!stat.isDirectory()) throw new Error(`${this.folder} is not a folder; remove it and start again`);
    // mkdir's mode is masked by the umask, and an older folder may be wider.
    await fs.chmod(this.folder, 0o700);
  }
}

/** A page with nothing but the way on: a meta refresh (no script), and a link if it stalls. */
export function launchHtml(url: string): string {
  const href = escapeHtml(url);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    `<meta http-equiv="refresh" content="0; url=${href}">`,
    '<title>Opening Gatehouse</title>',
    `<p>Opening Gatehouse\u2026 If nothing happens, <a href="${href}">open it here</a>; it works once, within a minute.</p>`,
    '</html>',
    '',
  ].join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
