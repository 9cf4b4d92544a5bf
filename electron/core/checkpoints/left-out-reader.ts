/**
 * Reads what a snapshot left out back from its commit, remembering the latest few: the
 * snapshots this process took are known already, so changes() and restore() rarely ask git.
 */
import { parseLeftOut, type LeftOutRecord } from './left-out.js';
import type { ShadowGit } from './shadow-git.js';

const REMEMBERED = 512;

export class LeftOutReader {
  private readonly known = new Map<string, LeftOutRecord>();

  constructor(private readonly shadow: ShadowGit) {}

  /** Remembers a snapshot's record from its message (the one just committed). */
  remember(id: string, message: string): void {
    this.put(id, parseLeftOut(`\n\n${message}`));
  }

  async read(id: string): Promise<LeftOutRecord> {
    const known = this.known.get(id);
    if (known) return known;
    const { code, stdout } = await this.shadow.run({
      what: `read snapshot ${id.slice(0, 12)}`,
      args: ['cat-file', 'commit', id],
      okCodes: [128],
    });
    if (code !== 0)
      throw new Error(`snapshot ${id.slice(0, 12)} is not in the checkpoint store (pruned, or never taken)`);
    const record = parseLeftOut(stdout.toString('utf8'));
    this.put(id, record);
    return record;
  }

  private put(id: string, record: LeftOutRecord): void {
    this.known.delete(id);
    this.known.set(id, record);
    if (this.known.size > REMEMBERED) this.known.delete(this.known.keys().next().value as string);
  }
}

export function missingSnapshot(id: string): Error {
  return new Error(`snapshot ${id.slice(0, 12)} is not in the checkpoint store (pruned, or never taken)`);
}
