/** A session's place and its review as the places room answers them (SPEC §15), for the places' tests and looks. */
import type { PlaceFileChange, PlaceListing, PlaceReview, SessionPlace } from '../../../../../shared/places';

export const ORIGIN = '/home/me/src/calc';
export const BRANCH = 'gatehouse/fix-the-calculator';

export const WORKTREE: SessionPlace = {
  kind: 'worktree',
  origin: ORIGIN,
  path: '/home/me/.local/share/gatehouse/places/s/calc',
  branch: BRANCH,
  baseCommit: '4f1c2ab9e0d3c6b7a8f9e0d1c2b3a4f5e6d7c8b9',
  state: 'active',
};

export const COPY: SessionPlace = {
  kind: 'copy',
  origin: '/home/me/notes',
  path: '/home/me/.local/share/gatehouse/places/s/notes',
  state: 'active',
};

const digest = (c: string) => c.repeat(64);

export const READY: PlaceFileChange = {
  path: 'calc.py',
  change: 'modified',
  status: 'ready',
  diff: '--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n',
  diffTruncated: false,
  bytes: 32,
  originDigest: digest('a'),
};

export const ADDED: PlaceFileChange = {
  path: 'tests/test_calc.py',
  change: 'added',
  status: 'ready',
  diff: '--- /dev/null\n+++ b/tests/test_calc.py\n@@ -0,0 +1,2 @@\n+from calc import add\n+assert add(1, 2) == 3\n',
  diffTruncated: false,
  bytes: 44,
  originDigest: 'absent',
};

export const CONFLICT: PlaceFileChange = {
  path: 'README.md',
  change: 'modified',
  status: 'conflict',
  diff: '--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,2 @@\n # calc\n-Adds badly.\n+Adds two numbers.\n',
  diffTruncated: false,
  bytes: 26,
  originDigest: digest('c'),
  theirsDiff: '--- a/README.md\n+++ b/README.md\n@@ -1,2 +1,2 @@\n # calc\n-Adds badly.\n+Adds, one day.\n',
  merged:
    '# calc\n<<<<<<< yours\nAdds, one day.\n||||||| base\nAdds badly.\n=======\nAdds two numbers.\n>>>>>>> session\n',
};

export const APPLIED: PlaceFileChange = {
  path: 'notes.txt',
  change: 'deleted',
  status: 'applied',
  diff: '--- a/notes.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-remember the milk\n',
  diffTruncated: false,
  bytes: 18,
  originDigest: 'absent',
};

export const COMMIT_ARGV: string[][] = [
  ['git', 'read-tree', 'refs/heads/main'],
  ['git', 'hash-object', '-w', '--no-filters', '--stdin'],
  ['git', 'update-index', '--index-info'],
  ['git', 'write-tree'],
  ['git', 'commit-tree', '-p', 'HEAD', '-m', '<message>', '<tree>'],
  ['git', 'update-ref', 'refs/heads/main', '<commit>', '<HEAD>'],
];

export function reviewOf(overrides: Partial<PlaceReview> = {}): PlaceReview {
  return {
    place: WORKTREE,
    reviewId: 'r1',
    reviewedAt: '2026-12-06T06:00:00.000Z',
    files: [READY, ADDED, CONFLICT, APPLIED],
    more: 0,
    commit: { branch: 'main', argv: COMMIT_ARGV },
    discard: {
      removes: [WORKTREE.path, `the branch ${BRANCH}`],
      argv: [
        ['git', 'worktree', 'remove', '--force', WORKTREE.path],
        ['git', 'branch', '-D', BRANCH],
      ],
    },
    bytes: 3_250_000,
    ...overrides,
  };
}

export const LISTED: PlaceListing[] = [
  {
    path: WORKTREE.path,
    kind: 'worktree',
    origin: ORIGIN,
    branch: BRANCH,
    bytes: 3_250_000,
    sessionId: 's',
    title: 'fix the calculator',
  },
  {
    path: '/home/me/.local/share/gatehouse/places/old/notes',
    kind: 'copy',
    origin: '/home/me/notes',
    bytes: 734_003_200,
    sessionId: null,
  },
];
