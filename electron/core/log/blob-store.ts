/**
 * Content-addressed blobs of one session (`blobs/<sha256 hex>`): every proposed byte of a
 * write card, and tool arguments too large to sit inline in an event. A blob's name is
 * its digest, so putting the same bytes twice is one file, and an id cannot name
 * anything outside the folder.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../files/atomic-file.js';
import { makePrivateDir } from '../files/private-files.js';
import type { ErrorKind } from '../error-kind.js';

const BLOB_ID = /^[0-9a-f]{64}$/;

export class BlobNotFoundError extends Error {
  readonly errorKind: ErrorKind = 'not-found';
  override readonly name = 'BlobNotFoundError';
  constructor(readonly id: string) {
    super(`blob ${id} is not in this session`);
  }
}

export function blobIdOf(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export class BlobStore {
  constructor(readonly dir: string) {}

  /** Stores the bytes (durably, before resolving) and returns their id. Idempotent. */
  async put(data: string | Uint8Array): Promise<string> {
    const id = blobIdOf(data);
    const file = this.fileOf(id);
    if (await this.exists(file)) return id;
    await makePrivateDir(this.dir);
    // Atomic, so a crash never leaves a file under a digest its bytes do not match.
    await writeFileAtomic(file, data);
    return id;
  }

  async get(id: string): Promise<Buffer> {
    try {
      return await fs.readFile(this.fileOf(id));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(id);
      throw err;
    }
  }

  has(id: string): Promise<boolean> {
    return this.exists(this.fileOf(id));
  }

  private fileOf(id: string): string {
    if (!BLOB_ID.test(id)) throw new Error(`not a blob id (64 lowercase hex digits): ${JSON.stringify(id)}`);
    return path.join(this.dir, id);
  }

  private async exists(file: string): Promise<boolean> {
    return fs.access(file).then(
      () => true,
      () => false,
    );
  }
}
