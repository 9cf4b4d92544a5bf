/**
 * Project instructions: `AGENTS.md` at the workspace root, or `CLAUDE.md` when there is
 * no AGENTS.md. They go into the system prompt verbatim, cut to a sane size.
 * A symlink that leads out of the workspace is not followed: reading outside needs a card.
 */
import { promises as fs } from 'node:fs';
import type { Workspace } from '../paths/workspace.js';

/** Instructions beyond this size are cut, so one huge file cannot crowd out the conversation. */
export const INSTRUCTIONS_MAX_BYTES = 64 * 1024;

export async function projectInstructions(workspace: Workspace): Promise<{ file: string; text: string } | null> {
  for (const file of ['AGENTS.md', 'CLAUDE.md']) {
    try {
      const target = await workspace.resolve(file);
      if (!target.exists) continue;
      const buf = await fs.readFile(target.real);
      const cut = buf.length > INSTRUCTIONS_MAX_BYTES;
      const text = buf.subarray(0, INSTRUCTIONS_MAX_BYTES).toString('utf8');
      return { file, text: cut ? `${text}\n[... ${file} cut at ${INSTRUCTIONS_MAX_BYTES} bytes]` : text };
    } catch {
      // Unreadable, or a link out of the workspace: try the next name.
    }
  }
  return null;
}
