/**
 * The MCP servers a person disabled in Settings, kept in the data folder so they stay
 * disabled across restarts. A server is known by its file and name (serverKey).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../files/atomic-file.js';
import type { McpServerConfig } from './mcp-config.js';
import { serverKey } from './server-key.js';

export class DisabledServers {
  private loaded: Promise<Set<string>> | null = null;

  constructor(private readonly dataDir: string) {}

  async has(server: McpServerConfig): Promise<boolean> {
    return (await this.load()).has(serverKey(server));
  }

  async set(server: McpServerConfig, disabled: boolean): Promise<void> {
    const keys = await this.load();
    if (disabled) keys.add(serverKey(server));
    else keys.delete(serverKey(server));
    await writeFileAtomic(this.file(), JSON.stringify([...keys].sort(), null, 2));
  }

  private load(): Promise<Set<string>> {
    this.loaded ??= fs
      .readFile(this.file(), 'utf8')
      .then((text) => new Set((JSON.parse(text) as unknown[]).filter((k): k is string => typeof k === 'string')))
      .catch(() => new Set<string>()); // missing or damaged: nothing disabled
    return this.loaded;
  }

  private file(): string {
    return path.join(this.dataDir, 'mcp-disabled.json');
  }
}
