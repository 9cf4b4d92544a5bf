/**
 * What a staged agent does in its place in the places tests (SPEC §15): it adds a file,
 * edits a line of another and runs a command whose output it keeps; and how each agent's
 * model is scripted to do it with that agent's own tools.
 */
import path from 'node:path';
import { patchThenRun } from '../agents/codex-script.js';
import type { OpencodeCall } from '../agents/opencode-script.js';
import { ORIGIN_FILES } from '../agents/staged-agent-harness.js';

/** What the agent does in its place: the file it adds, the line it edits, the command whose output it keeps. */
export const STAGED_WORK = {
  added: 'hello.txt',
  addedText: (agent: string) => `hello from ${agent}\n`,
  edited: 'notes.txt',
  editedFrom: 'second line',
  editedTo: (agent: string) => `second line, edited by ${agent}`,
  ran: 'count.txt',
  /** Run in the place by the agent's own shell: it reads the edited file, so it ran after the edit and in the place. */
  command: 'wc -l < notes.txt > count.txt',
} as const;

/** The three files as the agent leaves them in its place. */
export function placeFiles(agent: string): Record<string, string> {
  return {
    [STAGED_WORK.ran]: '2\n',
    [STAGED_WORK.added]: STAGED_WORK.addedText(agent),
    [STAGED_WORK.edited]: ORIGIN_FILES[STAGED_WORK.edited]!.replace(
      STAGED_WORK.editedFrom,
      STAGED_WORK.editedTo(agent),
    ),
  };
}

/** Codex's `exec`: apply_patch adds one file and edits a line of another; then the command runs in the place. */
export const CODEX_WORK = patchThenRun(
  [
    '*** Begin Patch',
    `*** Add File: ${STAGED_WORK.added}`,
    `+${STAGED_WORK.addedText('codex').trimEnd()}`,
    `*** Update File: ${STAGED_WORK.edited}`,
    '@@',
    `-${STAGED_WORK.editedFrom}`,
    `+${STAGED_WORK.editedTo('codex')}`,
    '*** End Patch',
    '',
  ].join('\n'),
  STAGED_WORK.command,
);

/** opencode's calls, with absolute paths in its place; it edits only a file it has read. */
export function opencodeWork(placeDir: string): OpencodeCall[] {
  const at = (rel: string) => path.join(placeDir, rel);
  return [
    { name: 'write', input: { filePath: at(STAGED_WORK.added), content: STAGED_WORK.addedText('opencode') } },
    { name: 'read', input: { filePath: at(STAGED_WORK.edited) } },
    {
      name: 'edit',
      input: {
        filePath: at(STAGED_WORK.edited),
        oldString: STAGED_WORK.editedFrom,
        newString: STAGED_WORK.editedTo('opencode'),
      },
    },
    { name: 'bash', input: { command: STAGED_WORK.command, description: 'count the lines' } },
  ];
}
