/**
 * The app's own settings (settings.json in the data folder): which model new turns use,
 * notifications, and what confined commands may see. Loaded once at start-up and kept in
 * memory, so the parts that read them for every turn or command (sessions, the sandbox,
 * the host's Settings view) ask this one object. Keys are not here; they live in
 * EncryptedKeys or the environment.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { modelConfigSchema, type ModelConfig } from '../../../shared/contract.js';
import { CHECKPOINT_STORE_DEFAULT_LIMIT_BYTES } from '../../../shared/limits.js';
import { writeFileAtomic } from '../files/atomic-file.js';
import { makePrivateDir, tightenFile } from '../files/private-files.js';

export const SETTINGS_FILE = 'settings.json';

const fileSchema = z.object({
  model: modelConfigSchema.nullable().default(null),
  notifications: z.boolean().default(true),
  refuseUnconfined: z.boolean().default(false),
  shownPlaces: z.array(z.string()).default([]),
  checkpointLimitBytes: z.int().positive().default(CHECKPOINT_STORE_DEFAULT_LIMIT_BYTES),
  // Keyed by plain strings, not the known ids: a file from a newer app naming another agent still loads.
  agentDomains: z.record(z.string(), z.array(z.string())).default({}),
});

export interface AppSettingsData {
  model: ModelConfig | null;
  /** OS notifications for cards and questions (the desktop app). */
  notifications: boolean;
  /** Refuse commands that cannot be confined (no sandbox here) rather than card them as unconfined. */
  refuseUnconfined: boolean;
  /** Folders the person shows to confined commands, read-only, beyond the toolchains (absolute). */
  shownPlaces: string[];
  /** Each workspace's checkpoint store is kept under this; the oldest snapshots go first. */
  checkpointLimitBytes: number;
  /** The hosts each external agent may reach, where the person changed its catalog's list (agents/agent-calls.ts). */
  agentDomains: Record<string, string[]>;
}

const DEFAULTS: AppSettingsData = {
  model: null,
  notifications: true,
  refuseUnconfined: false,
  shownPlaces: [],
  checkpointLimitBytes: CHECKPOINT_STORE_DEFAULT_LIMIT_BYTES,
  agentDomains: {},
};

export class AppSettings {
  private data: AppSettingsData = { ...DEFAULTS, shownPlaces: [], agentDomains: {} };

  constructor(private readonly dataDir: string) {}

  /** Reads the file into memory; says what is wrong with it, if anything (defaults stand then). */
  async load(): Promise<string | null> {
    const { problem, ...data } = await this.read();
    this.data = data;
    return problem;
  }

  /** The settings as last loaded or saved. */
  current(): Readonly<AppSettingsData> {
    return this.data;
  }

  /** Saves a change: on disk first, then in memory, so a failed write changes nothing. */
  async update(change: Partial<AppSettingsData>): Promise<Readonly<AppSettingsData>> {
    const next = { ...this.data, ...change };
    await this.write(next);
    this.data = next;
    return next;
  }

  /** A missing file means defaults; a damaged one is reported, not silently replaced. */
  async read(): Promise<AppSettingsData & { problem: string | null }> {
    // A file written before settings were private (0644) becomes 0600 at start-up.
    await tightenFile(this.file());
    let text: string;
    try {
      text = await fs.readFile(this.file(), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ...DEFAULTS, problem: null };
      return {
        ...DEFAULTS,
        problem: `cannot read ${this.file()}: ${(err as Error).message}`,
      };
    }
    try {
      return { ...fileSchema.parse(JSON.parse(text)), problem: null };
    } catch (err) {
      return {
        ...DEFAULTS,
        problem: `${this.file()} is damaged (${(err as Error).message.split('\n')[0]}); choose a model in Settings to rewrite it`,
      };
    }
  }

  async write(data: AppSettingsData): Promise<void> {
    await makePrivateDir(this.dataDir);
    await writeFileAtomic(this.file(), JSON.stringify(data, null, 2));
  }

  private file(): string {
    return path.join(this.dataDir, SETTINGS_FILE);
  }
}
