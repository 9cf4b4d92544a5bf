/**
 * What kind of failure an error of the core is, given once where its class is made (an
 * `errorKind` field on the class; `ChatError` has a `kind` of its own, the provider's, so
 * this one has a longer name). The host answers every error in words; the kind decides
 * only whether it is also reported as unexpected:
 *
 * - `refused`: the request cannot be done as asked (bad input, not allowed, not now);
 * - `conflict`: something changed under the request (a file since its card went up);
 * - `not-found`: what the request names does not exist;
 * - `internal`: a fault of the app or of its data on disk, reported as unexpected.
 *
 * An error without a kind (a Node error, a bug's TypeError) is internal.
 */
export const ERROR_KINDS = ['refused', 'conflict', 'not-found', 'internal'] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

export function errorKindOf(err: unknown): ErrorKind {
  const kind = err instanceof Error ? (err as { errorKind?: unknown }).errorKind : undefined;
  return ERROR_KINDS.find((k) => k === kind) ?? 'internal';
}
