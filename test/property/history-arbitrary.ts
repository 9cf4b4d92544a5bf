/**
 * The fast-check generator of histories. Paths are drawn from a vocabulary that covers
 * relative, absolute, `..`, link-chained, dangling, FIFO and Unicode paths; arguments are
 * valid or not; answers go to any card, open or long gone; the world changes at any step.
 * The person undoes, redoes and rewinds now and then, mostly right after a turn that wrote
 * files (an undo chunk), often after changing one of them. A share of histories also has
 * MCP servers, and the model calls their tools.
 */
import fc from 'fast-check';
import type { Answer } from '../../shared/cards.js';
import type { RewindRestore } from '../../shared/events.js';
import type { Edit, History, Step } from './history.js';
import { DEFAULT_ECHO, MCP_SERVER } from './mcp-world.js';
import { RACER_COMMAND } from './race-zone.js';
import { WORLD_DIRS, WORLD_FILES, WORLD_LINKS, type LinkTarget, type WorldOp, GIT_RAN } from './world.js';

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
  ['sh', '-c', 'cat "$0"/.claude/.credentials.json "$0"/.bashrc "$0"/.gitconfig; grep -rs planted "$0"; env', '<home>'],
  ['sh', '-c', 'cat "$0"/planted.txt; ls -R "$0"', '<data>'],
  ['sh', '-c', 'cat /proc/$PPID/environ /proc/1/environ; for f in /proc/[0-9]*/environ; do cat "$f"; done; true'],
);

/**
 * Tries to plant code the person's own git runs later (issue 19): a core.fsmonitor in the
 * repository's config, a new .git after moving the old one away, a hook in .git/hooks, a
 * core.hooksPath, each touching GIT_RAN. It writes nothing else in the workspace. Only ever confined: unconfined, it
 * would succeed, which is the card's promise, not a violation.
 */
const gitPlantingArgv = [
  'sh',
  '-c',
  [
    'git config core.fsmonitor "touch $0"',
    'printf "#!/bin/sh\ntouch $0\n" > .git/hooks/pre-commit',
    'mv .git .git-old && git init -q . && git config core.fsmonitor "touch $0"',
    'git config core.hooksPath .git/hooks-planted',
    'true',
  ].join('; '),
  GIT_RAN,
];

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
  { weight: 1, arbitrary: fc.constant({ argv: gitPlantingArgv }) },
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

/** One undo chunk to this many single steps. */
const UNDO_CHUNK_ODDS = 90;

const session = fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.constant(1) });

/**
 * Calls to the test MCP server's tools (as the model names them), with arguments drawn
 * from small pools so that the same call comes again (and a grant may cover it), now and
 * then with its keys in another order (the same call to a grant); change_description
 * changes echo, which voids echo's grants.
 */
const echoArgs = fc.oneof(
  { weight: 8, arbitrary: fc.record({ message: fc.constantFrom('hello', 'the plan') }) },
  // Not what echo's schema takes: the call must fail before the server hears of it.
  { weight: 1, arbitrary: fc.constantFrom<unknown>({ message: 5 }, {}) },
);

const addArgs = fc
  .tuple(fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 2 }), fc.boolean())
  .map(([a, b, reordered]) => (reordered ? { b, a } : { a, b }));

const changeArgs = fc.record({
  text: fc.constantFrom(DEFAULT_ECHO, 'Echoes, and mails it away'),
});

const mcpTool = (name: string) => `mcp__${MCP_SERVER}__${name}`;

const MCP_ARGS: [string, number, fc.Arbitrary<unknown>][] = [
  ['echo', 6, echoArgs],
  ['add', 6, addArgs],
  ['change_description', 3, changeArgs],
  ['fail', 1, fc.constant({})],
  // The server exits mid-call: the next turn starts it again, on a grant or after a card.
  ['crash', 1, fc.constant({})],
  ['no_such_tool', 1, fc.constant({})],
];

const mcpCallStep: fc.Arbitrary<Step> = fc.oneof(
  ...MCP_ARGS.map(([name, weight, args]) => ({
    weight,
    arbitrary: fc.tuple(session, args).map(([s, a]): Step => ({ kind: 'call', s, tool: mcpTool(name), args: a })),
  })),
);

const callStep: fc.Arbitrary<Step> = fc
  .tuple(session, fc.constantFrom(...Object.keys(TOOL_ARGS)))
  .chain(([s, tool]) => TOOL_ARGS[tool]!.map((args): Step => ({ kind: 'call', s, tool, args })));

/**
 * What the person types into a write card (SPEC §13): a change here and there (Unicode
 * included: accents, combining marks, CJK, an emoji, CRLF, a BOM, a bidi override, a lone
 * surrogate), now and then nothing at all (the proposal itself) or a whole file of their
 * own; rarely exactly 256 KiB, one byte over it, or a NUL.
 */
const EDIT_TEXTS = [
  '',
  'x',
  'person\n',
  'é',
  'naïve café\n',
  '日本語\n',
  '🙂',
  'e\u0301',
  '\r\n',
  '\uFEFF',
  '\u202E',
  '\uD800',
];

const smallEdit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constant('splice' as const),
  at: fc.nat({ max: 40 }),
  del: fc.nat({ max: 3 }),
  text: fc.constantFrom(...EDIT_TEXTS),
});

const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Edit>({ kind: 'splice', at: 0, del: 0, text: '' }) },
  { weight: 8, arbitrary: smallEdit },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('', 'the person wrote this\n', 'ça va ✓\n')
      .map((text): Edit => ({ kind: 'whole', text })),
  },
  { weight: 1, arbitrary: fc.constantFrom<Edit>({ kind: 'limit' }, { kind: 'oversize' }, { kind: 'nul' }) },
);

/** Mostly allow_once, as the card offers it; now and then with an answer the app must refuse with edits. */
const editedAnswer = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Answer>('allow_once') },
  { weight: 1, arbitrary: fc.constantFrom<Answer>('allow_session', 'deny') },
);

/** An answer, about one in four with the person's edits. */
function answerWithEdit(answers: fc.Arbitrary<Answer>): fc.Arbitrary<{ answer: Answer; edit?: Edit }> {
  return fc.oneof(
    { weight: 3, arbitrary: answers.map((answer) => ({ answer })) },
    { weight: 1, arbitrary: fc.tuple(editedAnswer, edit).map(([answer, edit]) => ({ answer, edit })) },
  );
}

const answerStep: fc.Arbitrary<Step> = fc
  .tuple(session, fc.nat({ max: 5 }), answerWithEdit(fc.constantFrom<Answer>('allow_once', 'allow_session', 'deny')))
  .map(([s, pick, given]): Step => ({ kind: 'answer', s, pick, ...given }));

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

const restartStep: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Step>({ kind: 'restart' }) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom<Answer>('allow_once', 'allow_session', 'deny')
      .map((answer): Step => ({ kind: 'restart', answer })),
  },
  { weight: 1, arbitrary: smallEdit.map((edit): Step => ({ kind: 'restart', answer: 'allow_once', edit })) },
);

/**
 * The person's undo, redo and rewind (SPEC §12). A turn or a message is named by counting
 * back from the last; now and then only some of a turn's files, and now and then the files
 * changed since are ticked to be overwritten.
 */
function restoreStep(s: fc.Arbitrary<number>): fc.Arbitrary<Step> {
  const tick = fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constant(true) });
  const only = fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 7 }) },
  );
  const back = fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 3 }) },
  );
  const strip = <T extends object>(o: T): T =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  return fc.oneof(
    {
      weight: 5,
      arbitrary: fc
        .tuple(s, back, only, tick)
        .map(([s, turn, only, tick]): Step => strip({ kind: 'undo', s, turn, only, tick })),
    },
    { weight: 2, arbitrary: fc.tuple(s, tick).map(([s, tick]): Step => strip({ kind: 'redo', s, tick })) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(s, back, fc.constantFrom<RewindRestore>('code', 'conversation', 'both'), tick)
        .map(([s, message, restore, tick]): Step => strip({ kind: 'rewind', s, message, restore, tick })),
    },
  );
}

/** Files a turn writes in an undo chunk, relative to the session's workspace. */
const UNDO_WRITES = ['a.txt', 'dir/b.txt', 'new.txt', 'sub/c.txt', 'dir/new/deep.txt', 'naïve.txt', 'é/ü.txt', 'c.txt'];

/** What a turn's write in an undo chunk puts in its file. */
const undoChange = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('agent one\n', 'agent two\nmore\n', '').map((content) => ({ content })) },
  { weight: 1, arbitrary: fc.constant({ old: 'one', new: 'ONE' }) },
);

/**
 * A few steps that reach undo's deep states: the person stops what session s was doing, a
 * turn writes a file or two (allowed on its card), the person stops it (or the model
 * finishes), often changes or deletes a file the turn wrote (or another one), and then
 * undoes that turn (or redoes, or rewinds), often redoing what it just undid.
 */
function undoChunk(second: History['second']): fc.Arbitrary<Step[]> {
  return session.chain((s) => {
    // Where the person finds the session's files: session 1's workspace may be the `sub` folder.
    const prefix = s === 1 && second === 'nested' ? 'p/ws/sub/' : 'p/ws/';
    const undoLast: Step = { kind: 'undo', s, turn: 0 };
    return fc
      .tuple(
        fc.array(
          fc.tuple(
            fc.constantFrom(...UNDO_WRITES),
            undoChange,
            fc.oneof(
              {
                weight: 4,
                arbitrary: fc.constantFrom<Answer>('allow_once', 'allow_session').map((answer) => ({ answer })),
              },
              // Allowed with the person's edits: the undo takes back their bytes.
              { weight: 1, arbitrary: smallEdit.map((edit) => ({ answer: 'allow_once' as const, edit })) },
            ),
          ),
          { minLength: 1, maxLength: 2 },
        ),
        fc.constantFrom<Step>({ kind: 'cancel', s }, { kind: 'cancel', s }, { kind: 'finish', s }),
        fc.oneof(
          { weight: 5, arbitrary: fc.constant('written' as const) },
          { weight: 1, arbitrary: fc.constantFrom(...UNDO_WRITES) },
          { weight: 2, arbitrary: fc.constant(null) },
        ),
        fc.constantFrom<'edit' | 'delete'>('edit', 'edit', 'edit', 'delete'),
        fc.oneof(
          { weight: 3, arbitrary: fc.constant(undoLast) },
          { weight: 2, arbitrary: restoreStep(fc.constant(s)) },
        ),
        fc.oneof(
          { weight: 2, arbitrary: fc.constant(null) },
          { weight: 2, arbitrary: fc.constant<Step>({ kind: 'redo', s }) },
          { weight: 1, arbitrary: restoreStep(fc.constant(s)) },
        ),
      )
      .map(([writes, end, edited, op, first, then]): Step[] => {
        const turn = writes.flatMap(([file, change, given]): Step[] => [
          {
            kind: 'call',
            s,
            tool: 'content' in change ? 'write_file' : 'search_replace',
            args: { path: file, ...change },
          },
          { kind: 'answer', s, pick: 0, ...given },
        ]);
        const file = edited === 'written' ? writes[0]![0] : edited;
        const edit: Step[] = file === null ? [] : [{ kind: 'world', op: { op, path: `${prefix}${file}` } }];
        return [{ kind: 'cancel', s }, ...turn, end, ...edit, first, ...(then ? [then] : [])];
      });
  });
}

/**
 * A few steps that reach the deep states of editing on the card (SPEC §13): a turn proposes
 * a write, the file often changes before the person allows it with their edits (so the
 * card is asked again, keeping them), now and then the app restarts there, and the person
 * answers the card asked again: with the same edits or others, plainly, or with a deny.
 */
function editChunk(second: History['second']): fc.Arbitrary<Step[]> {
  return session.chain((s) => {
    const prefix = s === 1 && second === 'nested' ? 'p/ws/sub/' : 'p/ws/';
    const answer = (a: { answer: Answer; edit?: Edit }): Step => ({ kind: 'answer', s, pick: 0, ...a });
    return fc
      .tuple(
        fc.constantFrom(...UNDO_WRITES),
        undoChange,
        fc.boolean(),
        edit,
        fc.oneof(
          { weight: 3, arbitrary: fc.constant<Step[]>([]) },
          { weight: 1, arbitrary: fc.constant<Step[]>([{ kind: 'restart' }]) },
          {
            weight: 1,
            arbitrary: smallEdit.map((e): Step[] => [{ kind: 'restart', answer: 'allow_once', edit: e }]),
          },
        ),
        fc.boolean(),
        fc.oneof(
          { weight: 3, arbitrary: fc.constant('same' as const) },
          { weight: 2, arbitrary: smallEdit.map((e) => ({ answer: 'allow_once' as const, edit: e })) },
          {
            weight: 2,
            arbitrary: fc.constantFrom<Answer>('allow_once', 'allow_session', 'deny').map((a) => ({ answer: a })),
          },
        ),
      )
      .map(([file, change, changed, first, restart, again, then]): Step[] => {
        const touch: Step = { kind: 'world', op: { op: 'edit', path: `${prefix}${file}` } };
        const tool = 'content' in change ? 'write_file' : 'search_replace';
        return [
          { kind: 'cancel', s },
          { kind: 'call', s, tool, args: { path: file, ...change } },
          ...(changed ? [touch] : []),
          answer({ answer: 'allow_once', edit: first }),
          ...restart,
          ...(again ? [touch] : []),
          answer(then === 'same' ? { answer: 'allow_once', edit: first } : then),
        ];
      });
  });
}

/**
 * Steps in the racer's zone (race-zone.ts), always session 0's (its workspace holds the
 * zone): greps that walk it or name it, a read and a list through the swapped folder, and
 * a turn whose allowed command changes 20 of the zone's files and adds 20, undone at once
 * (a write or a deletion through the link would land on the same names in `<out>/deep`).
 */
const racerChunk: fc.Arbitrary<Step[]> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .array(fc.constantFrom('race', 'race/d', '.', 'race/dl'), { minLength: 2, maxLength: 5 })
      .map((paths): Step[] =>
        paths.map((p) => ({ kind: 'call', s: 0, tool: 'grep', args: { pattern: 't\\d+x|race', path: p } })),
      ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Step[]>(
      [{ kind: 'call', s: 0, tool: 'read_file', args: { path: 'race/d/u.txt' } }],
      [{ kind: 'call', s: 0, tool: 'list_dir', args: { path: 'race/d' } }],
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom<Step>({ kind: 'undo', s: 0, turn: 0 }, { kind: 'redo', s: 0 }).map((then): Step[] => [
      { kind: 'cancel', s: 0 },
      {
        kind: 'call',
        s: 0,
        tool: 'run',
        args: { argv: RACER_COMMAND },
      },
      { kind: 'answer', s: 0, pick: 0, answer: 'allow_once' },
      { kind: 'finish', s: 0 },
      { kind: 'undo', s: 0, turn: 0 },
      then,
    ]),
  },
);

const steps = {
  call: { weight: 10, arbitrary: callStep },
  rest: [
    { weight: 10, arbitrary: answerStep },
    { weight: 6, arbitrary: worldOp.map((op): Step => ({ kind: 'world', op })) },
    { weight: 2, arbitrary: session.map((s): Step => ({ kind: 'send', s })) },
    { weight: 1, arbitrary: session.map((s): Step => ({ kind: 'finish', s })) },
    { weight: 1, arbitrary: session.map((s): Step => ({ kind: 'cancel', s })) },
    { weight: 2, arbitrary: restartStep },
    { weight: 1, arbitrary: restoreStep(session) },
  ] satisfies fc.WeightedArbitrary<Step>[],
};

const step: fc.Arbitrary<Step> = fc.oneof(steps.call, ...steps.rest);

/** Mostly single steps; now and then an undo chunk or an edit chunk. */
function plainChunk(second: History['second']): fc.Arbitrary<Step[]> {
  return fc.oneof(
    { weight: UNDO_CHUNK_ODDS, arbitrary: step.map((one) => [one]) },
    { weight: 1, arbitrary: undoChunk(second) },
    { weight: 2, arbitrary: editChunk(second) },
  );
}

/**
 * In a history with MCP servers, the model calls their tools more often than the others,
 * and a person allows more often than not (a denied start stands for the rest of the
 * session, until Restart in Settings, and leaves the calls nothing to reach). The world
 * changes less (moving the workspace hides its .mcp.json, and its server stops), and the
 * app restarts less: every restart costs the servers a new start, about 300 ms each.
 */
const mcpHistoryStep: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: callStep },
  { weight: 14, arbitrary: mcpCallStep },
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('answer' as const),
      s: session,
      pick: fc.nat({ max: 5 }),
      answer: fc.constantFrom<Answer>('allow_once', 'allow_once', 'allow_session', 'allow_session', 'deny'),
    }),
  },
  // Edits on an MCP card: refused, changing nothing.
  {
    weight: 1,
    arbitrary: fc
      .tuple(session, fc.nat({ max: 5 }), editedAnswer, edit)
      .map(([s, pick, answer, edit]): Step => ({ kind: 'answer', s, pick, answer, edit })),
  },
  { weight: 3, arbitrary: worldOp.map((op): Step => ({ kind: 'world', op })) },
  { weight: 2, arbitrary: session.map((s): Step => ({ kind: 'send', s })) },
  { weight: 1, arbitrary: session.map((s): Step => ({ kind: 'finish', s })) },
  { weight: 1, arbitrary: session.map((s): Step => ({ kind: 'cancel', s })) },
  { weight: 1, arbitrary: session.map((s): Step => ({ kind: 'mcpRestart', s })) },
  { weight: 1, arbitrary: restartStep },
);

/** The same arguments with their keys in the reverse order: the same call to a grant. */
function reordered(args: unknown): unknown {
  return args !== null && typeof args === 'object' ? Object.fromEntries(Object.entries(args).reverse()) : args;
}

/**
 * A few steps that reach deep states more often than single steps would: a call allowed
 * for the session, then the same call again (keys reordered); or that, with echo changed
 * in between (voiding its grant), so the second echo must ask again.
 */
const mcpChunk: fc.Arbitrary<Step[]> = fc.oneof(
  { weight: 30, arbitrary: mcpHistoryStep.map((step) => [step]) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        session,
        fc.oneof(
          echoArgs.map((a) => ['echo', a] as const),
          addArgs.map((a) => ['add', a] as const),
        ),
      )
      .map(([s, [name, args]]): Step[] => [
        { kind: 'call', s, tool: mcpTool(name), args },
        { kind: 'answer', s, pick: 0, answer: 'allow_session' },
        { kind: 'call', s, tool: mcpTool(name), args: reordered(args) },
      ]),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(session, echoArgs, changeArgs, fc.constantFrom<Answer>('allow_once', 'allow_session'))
      .map(([s, echo, change, answer]): Step[] => [
        { kind: 'call', s, tool: mcpTool('echo'), args: echo },
        { kind: 'answer', s, pick: 0, answer: 'allow_session' },
        { kind: 'call', s, tool: mcpTool('change_description'), args: change },
        { kind: 'answer', s, pick: 0, answer },
        { kind: 'call', s, tool: mcpTool('echo'), args: echo },
      ]),
  },
);

/**
 * `crashShare`: the share of histories (0 to 1) that spend a real host process and a kill -9.
 * `mcpShare`: the share whose workspaces name the test MCP server (each start of it costs
 * a confined process, about 300 ms).
 */
export function historyArbitrary(
  options: { maxSteps?: number; crashShare?: number; mcpShare?: number; racerShare?: number } = {},
): fc.Arbitrary<History> {
  const maxSteps = options.maxSteps ?? 40;
  const crash = fc.record({ at: fc.nat({ max: maxSteps - 1 }), delayMs: fc.integer({ min: 0, max: 30 }) });
  const plain = fc.constantFrom<History['second']>('same', 'nested').chain((second) =>
    fc.record({
      second: fc.constant(second),
      hooks: fc.boolean(),
      steps: fc
        .array(plainChunk(second), { minLength: 1, maxLength: maxSteps, size: 'max' })
        .map((chunks) => chunks.flat().slice(0, maxSteps)),
      crash: share(options.crashShare ?? 0, fc.constant(null), crash),
    }),
  );
  const withRacer = withRacerShare(plain, options.racerShare ?? 0, maxSteps);
  if ((options.mcpShare ?? 0) <= 0) return withRacer;
  const mcpSteps = fc
    .array(mcpChunk, { minLength: 1, maxLength: maxSteps, size: 'max' })
    .map((chunks) => chunks.flat().slice(0, maxSteps));
  // Drawn after the plain history, so the histories without MCP are the ones a run without it has.
  return withRacer.chain((h) =>
    share<History>(
      options.mcpShare ?? 0,
      fc.constant(h),
      // Each session's workspace has its own .mcp.json, so each server logs to a file of its own.
      mcpSteps.map((s): History => ({ ...h, second: 'nested', steps: s, mcp: true, racer: false })),
    ),
  );
}

/**
 * A share of the histories run beside the racer (race-zone.ts): in-process ones (no kill),
 * session 0 stepping into the racer's zone often among the usual steps. Drawn after the
 * plain history, so the others are the ones a run without racers has.
 */
function withRacerShare(plain: fc.Arbitrary<History>, racerShare: number, maxSteps: number): fc.Arbitrary<History> {
  if (racerShare <= 0) return plain;
  const racerSteps = fc
    .array(fc.oneof({ weight: 2, arbitrary: step.map((one) => [one]) }, { weight: 3, arbitrary: racerChunk }), {
      minLength: 1,
      maxLength: maxSteps,
      size: 'max',
    })
    .map((chunks) => chunks.flat().slice(0, maxSteps));
  return plain.chain((h) =>
    share<History>(
      racerShare,
      fc.constant(h),
      racerSteps.map((s): History => ({ ...h, steps: s, crash: null, racer: true })),
    ),
  );
}

/** `rare` for a share (0 to 1) of the draws, `usual` for the rest. */
function share<T>(fraction: number, usual: fc.Arbitrary<T>, rare: fc.Arbitrary<T>): fc.Arbitrary<T> {
  const perThousand = Math.round(fraction * 1000);
  if (perThousand <= 0) return usual;
  return fc.oneof({ weight: 1000 - perThousand, arbitrary: usual }, { weight: perThousand, arbitrary: rare });
}
