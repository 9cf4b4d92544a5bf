/** What CardDiffer and its worker thread say to each other. */
import type { CardDiff } from '../../../shared/diff/card-diff.js';

export interface DiffRequest {
  id: number;
  path: string;
  before: Uint8Array | null;
  after: Uint8Array;
}

export type DiffReply = { id: number; diff: CardDiff } | { id: number; error: string };
