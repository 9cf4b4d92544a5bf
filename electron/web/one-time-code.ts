/**
 * What `npm start` hands the browser instead of the token: a code that the host exchanges
 * once, within 60 s, for a redirect to `/#token=…`. The code itself never goes on a command
 * line either (any local user reads those in `ps`, and whoever fetched the code first would
 * get the token): it rides in a launch page only the user can read (launch-page.ts), which
 * goes once the code is spent. Codes live in memory only: a restarted host honours none.
 */
import { randomBytes } from 'node:crypto';
import { tokenMatches } from './token.js';

export const CODE_LIFETIME_MS = 60_000;

/** Only this process mints codes, one per browser it opens; a few at once is plenty. */
const MAX_LIVE_CODES = 16;

export interface Redeemed {
  /** The session the page should show first (`--open FOLDER`), if any. */
  session: string | null;
}

interface LiveCode {
  code: string;
  expiresAt: number;
  session: string | null;
  /** Called once when the code is spent (the launch page that carried it is deleted then). */
  onRedeemed?: () => void;
}

export class OneTimeCodes {
  private live: LiveCode[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  mint(session: string | null = null, onRedeemed?: () => void): string {
    this.purge();
    const code = randomBytes(24).toString('base64url');
    this.live.push({ code, expiresAt: this.now() + CODE_LIFETIME_MS, session, onRedeemed });
    if (this.live.length > MAX_LIVE_CODES) this.live.shift();
    return code;
  }

  /** The code's grant, once; null for a code that is unknown, spent or expired. */
  redeem(given: string | null): Redeemed | null {
    this.purge();
    let found: LiveCode | null = null;
    // Every live code is compared, in constant time, so the answer's timing says nothing.
    for (const entry of this.live) if (tokenMatches(entry.code, given)) found = entry;
    if (!found) return null;
    this.live = this.live.filter((entry) => entry !== found);
    found.onRedeemed?.();
    return { session: found.session };
  }

  private purge(): void {
    const now = this.now();
    this.live = this.live.filter((entry) => now < entry.expiresAt);
  }
}
