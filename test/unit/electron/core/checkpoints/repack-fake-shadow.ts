/**
 * A ShadowGit stand-in for the repack policy's tests: it notes each git command, answers
 * `count-objects` with an empty store (so a look at the store is that one command), and
 * can hold its commands until released, as a long repack would.
 */
import path from 'node:path';
import type { ShadowGit, ShadowCall } from '../../../../../electron/core/checkpoints/shadow-git.js';

export interface FakeShadow {
  shadow: ShadowGit;
  /** Each command run, as its git arguments joined by spaces. */
  commands: string[];
  /** Lets every held command finish. */
  release: () => void;
}

export function fakeShadow(storeDir: string, options: { held?: boolean } = {}): FakeShadow {
  const commands: string[] = [];
  let release: () => void = () => undefined;
  const held = options.held ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const note = async (call: ShadowCall) => {
    commands.push(call.args.join(' '));
    await held;
  };
  const shadow = {
    layout: { storeDir, repo: path.join(storeDir, 'no-repo-here') },
    text: async (call: ShadowCall) => {
      await note(call);
      return 'count: 0\nsize: 0';
    },
    run: async (call: ShadowCall) => {
      await note(call);
      return { code: 0, stdout: Buffer.alloc(0), stderr: '' };
    },
  } as unknown as ShadowGit;
  return { shadow, commands, release: () => release() };
}

/** Notes enough snapshots' writes for the policy to look at the store (CHECK_EVERY_SNAPSHOTS). */
export function noteSnapshots(
  note: (shadow: ShadowGit, bytes: number, onError: (err: unknown) => void) => void,
  shadow: ShadowGit,
  count: number,
): void {
  for (let i = 0; i < count; i++)
    note(shadow, 0, (err) => {
      throw err;
    });
}
