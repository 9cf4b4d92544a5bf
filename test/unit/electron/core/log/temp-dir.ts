import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** A fresh folder under the OS temp dir for each test, removed afterwards. */
export function useTempDir(): { readonly path: string } {
  const holder = { path: '' };
  beforeEach(async () => {
    holder.path = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-log-'));
  });
  afterEach(async () => {
    await rm(holder.path, { recursive: true, force: true });
  });
  return holder;
}
