/**
 * The fast-check generator of histories. Paths are drawn from a vocabulary that covers
 * relative, absolute, `..`, link-chained, dangling, FIFO and Unicode paths; arguments are
 * valid or not; answers go to any card, open or long gone; the world changes at any step.
 */
import fc from 'fast-check';
import type { Answer } from '../../shared/cards.js';
import type { History, Step } from './history.js';
import { WORLD_DIRS, WORLD_FILES, WORLD_LINKS, type LinkTarget, type WorldOp } from './world.js';

const RELATIVE = [
  'a.txt',
  'dir/b.txt',
  'dir',
  '.',
  'new.txt',
  'dir/new/deep.txt',
  'sub/c.txt',
  'sub',
  'c.txt',
  '../a.txt',
  '../outside/s.txt',
  'dir/../a.txt',
  'link-out/s.txt',
  'link-out',
  'link-in',
  'link-in/b.txt',
  'chain/b.txt',
  'dangling',
  'dangling/x',
  'é/ü.txt',
  'naïve.txt',
  'nai\u0308ve.txt',
  'fifo-link',
  'up/outside/s.txt',
];

/** Absolute paths that never lead to "/" itself, so a granted grep stays small. */
const ABSOLUTE_SEARCHABLE = [
  '<ws>/a.txt',
  '<ws>',
  '<out>/s.txt',
  '<out>',
  '<out>/t.txt',
  '<out>/deep',
  '<ws>/link-out/s.txt',
  '<ws>/../outside/s.txt',
  '<root>/p-moved/ws/a.txt',
  '<ws>/sub/c.txt',
  '<ws>/up/outside/t.txt',
];

const ABSOLUTE = [
  ...ABSOLUTE_SEARCHABLE,
  '<ws>/dir',
  '<ws>/new.txt',
  '<out>/new.txt',
  '<out>/deep/new.txt',
  '/',
  '<out>/fifo',
  '<ws>/dangling',
];

/** The paths that usually work, drawn more often so histories reach cards and answers. */
const COMMON = [
  'a.txt',
  'dir/b.txt',
  'new.txt',
  '<out>/s.txt',
  '<out>',
  '<ws>/a.txt',
  'link-in/b.txt',
  '<out>/new.txt',
];

function weighted(paths: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...COMMON) },
    { weight: 3, arbitrary: fc.constantFrom(...paths) },
  );
}

const anyPath = weighted([...RELATIVE, ...ABSOLUTE, '<ws>/rootlink']);
const searchPath = weighted([...RELATIVE, ...ABSOLUTE_SEARCHABLE]);
const writePath = weighted([
  ...RELATIVE,
  '<ws>/a.txt',
  '<ws>/new.txt',
  '<out>/s.txt',
  '<out>/new.txt',
  '<out>/deep/new.txt',
  '<ws>/link-out/t.txt',
  '<ws>/../outside/s.txt',
  '<root>/p-moved/ws/a.txt',
  '<out>/fifo',
]);

/** The command whose start is proven by a line (its real working folder) in a marker file. */
export function markerArgv(k: number): string[] {
  return ['sh', '-c', 'pwd -P >> "$0"', `<mk>/m${k}`];
}

const readFileArgs = fc.oneof(
  { weight: 6, arbitrary: fc.record({ path: anyPath }) },
  { weight: 2, arbitrary: fc.record({ path: anyPath, line: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ path: anyPath, offset: fc.integer({ min: 0, max: 8 }) }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>({}, { path: 5 }, { path: 'a.txt', line: 1, offset: 1 }) },
);

const grepArgs = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        pattern: fc.constantFrom('one', 't\\d+x', 'two', 'n\\d+q'),
        path: searchPath,
        glob: fc.constantFrom('*.txt', '!*.md'),
        fixed_string: fc.boolean(),
      },
      { requiredKeys: ['pattern'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ pattern: fc.constant('('), path: searchPath }) },
);

const listDirArgs = fc.oneof(
  { weight: 6, arbitrary: fc.record({ path: anyPath }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>({ path: '' }, { path: 3 }) },
);

const writeFileArgs = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ path: writePath, content: fc.constantFrom('agent one\n', 'agent two\nmore\n', '') }),
  },
  { weight: 1, arbitrary: fc.constantFrom<unknown>({ content: 'x' }, { path: 'a.txt', content: 'nul\0byte' }) },
);

const searchReplaceArgs = fc.record(
  {
    path: writePath,
    old: fc.constantFrom('one', 'two', 'zzz', 'three\n'),
    new: fc.constantFrom('ONE', '', 'two'),
    replace_all: fc.boolean(),
  },
  { requiredKeys: ['path', 'old', 'new'] },
);

const cwd = fc.constantFrom('.', 'dir', 'sub', 'link-in', 'chain', 'link-out', 'missing', '<ws>/dir', '<out>', 'é');

/** The outside file an escaping command appends to, and what it appends. */
export const ESCAPE_TARGET = '<out>/escape.txt';
export const ESCAPE_BYTES = 'escaped';

/**
 * Commands that try what a confined command must not do (SPEC §9): write outside the
 * workspace, read a planted secret from ~/.ssh or the data folder, or read the app's
 * environment through /proc. Allowed and confined, none may succeed; asked unconfined,
 * the card says so.
 */
const tryingArgv = fc.constantFrom<string[]>(
  ['sh', '-c', `printf ${ESCAPE_BYTES} >> "$0"`, ESCAPE_TARGET],
  ['cat', '<home>/.ssh/id_rsa'],
  ['sh', '-c', 'cat "$0"/planted.txt; ls -R "$0"', '<data>'],
  ['sh', '-c', 'cat /proc/$PPID/environ /proc/1/environ; for f in /proc/[0-9]*/environ; do cat "$f"; done; true'],
);

/** A grandchild in a session of its own that tries to write outside after its command ended; only ever confined. */
const lingeringArgv = [
  'sh',
  '-c',
  `(setsid sh -c 'sleep 0.3; printf ${ESCAPE_BYTES} >> "$0"' "$0" &); true`,
  ESCAPE_TARGET,
];

const runArgs = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ argv: tryingArgv, unconfined: fc.constantFrom(true, false) }, { requiredKeys: ['argv'] }),
  },
  { weight: 1, arbitrary: fc.constant({ argv: lingeringArgv }) },
  {
    weight: 8,
    arbitrary: fc.record(
      { argv: fc.integer({ min: 0, max: 2 }).map(markerArgv), cwd, timeout_s: fc.constantFrom(5, 120) },
      { requiredKeys: ['argv'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      { argv: [] },
      { argv: markerArgv(0), timeout_s: 700 },
      { argv: ['no-such-program-gatehouse'] },
    ),
  },
);

const TOOL_ARGS: Record<string, fc.Arbitrary<unknown>> = {
  read_file: readFileArgs,
  grep: grepArgs,
  list_dir: listDirArgs,
  write_file: writeFileArgs,
  search_replace: searchReplaceArgs,
  run: runArgs,
};

const session = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(1) });

const callStep: fc.Arbitrary<Step> = fc
  .tuple(session, fc.constantFrom(...Object.keys(TOOL_ARGS)))
  .chain(([s, tool]) => TOOL_ARGS[tool]!.map((args): Step => ({ kind: 'call', s, tool, args })));

const answerStep: fc.Arbitrary<Step> = fc.record({
  kind: fc.constant('answer' as const),
  s: session,
  pick: fc.nat({ max: 5 }),
  answer: fc.constantFrom<Answer>('allow_once', 'allow_session', 'deny'),
});

const linkTarget = fc.constantFrom<LinkTarget>('outside', 'outfile', 'fifo', 'missing', 'dir');

const worldOp: fc.Arbitrary<WorldOp> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('edit' as const), path: fc.constantFrom(...WORLD_FILES) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('create' as const), dir: fc.constantFrom(...WORLD_DIRS) }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('delete' as const), path: fc.constantFrom(...WORLD_FILES, 'p/ws/dir') }),
  },
  {
    weight: 3,
    arbitrary: fc.oneof(
      fc.record({ op: fc.constant('link' as const), path: fc.constantFrom(...WORLD_LINKS), to: linkTarget }),
      // Only a leaf no grep path names may lead to "/" itself.
      fc.constant<WorldOp>({ op: 'link', path: 'p/ws/new.txt', to: 'root' }),
    ),
  },
  { weight: 1, arbitrary: fc.constant<WorldOp>({ op: 'renameParent' }) },
);

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 10, arbitrary: callStep },
  { weight: 10, arbitrary: answerStep },
  { weight: 6, arbitrary: worldOp.map((op): Step => ({ kind: 'world', op })) },
  { weight: 2, arbitrary: session.map((s): Step => ({ kind: 'send', s })) },
  { weight: 1, arbitrary: session.map((s): Step => ({ kind: 'finish', s })) },
  { weight: 1, arbitrary: session.map((s): Step => ({ kind: 'cancel', s })) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.constant<Step>({ kind: 'restart' }),
      fc
        .constantFrom<Answer>('allow_once', 'allow_session', 'deny')
        .map((answer): Step => ({ kind: 'restart', answer })),
    ),
  },
);

/** `crashShare`: the share of histories (0 to 1) that spend a real host process and a kill -9. */
export function historyArbitrary(options: { maxSteps?: number; crashShare?: number } = {}): fc.Arbitrary<History> {
  const maxSteps = options.maxSteps ?? 40;
  const share = options.crashShare ?? 0;
  const crash = fc.record({ at: fc.nat({ max: maxSteps - 1 }), delayMs: fc.integer({ min: 0, max: 30 }) });
  const perThousand = Math.round(share * 1000);
  return fc.record({
    second: fc.constantFrom<History['second']>('same', 'nested'),
    hooks: fc.boolean(),
    steps: fc.array(step, { minLength: 1, maxLength: maxSteps, size: 'max' }),
    crash:
      perThousand > 0
        ? fc.oneof(
            { weight: 1000 - perThousand, arbitrary: fc.constant(null) },
            { weight: perThousand, arbitrary: crash },
          )
        : fc.constant(null),
  });
}
