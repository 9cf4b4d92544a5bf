import { INSTRUCTIONS_MAX_BYTES } from '../../../shared/limits.js';
/**
 * Project instructions: `AGENTS.md` at the workspace root, or `CLAUDE.md` when there is
 * no AGENTS.md. They go into the system prompt verbatim, cut to a sane size.
 * A symlink that leads out of the workspace is not followed: reading outside needs a card.
 */
import { readRegularFile } from '../paths/regular-file.js';
import type { Workspace } from '../paths/workspace.js';
import { wholeCharLength } from '../text/utf8-boundary.js';

export async function projectInstructions(workspace: Workspace): Promise<{ file: string; text: string } | null> {
  for (const file of ['AGENTS.md', 'CLAUDE.md']) {
    try {
      const target = await workspace.resolve(file);
      // Not inside: a link into the app's data folder (a session log, the web token) is no instruction.
      if (!target.exists || !target.inside) continue;
      // Only the first INSTRUCTIONS_MAX_BYTES are read, and a FIFO or device is refused
      // rather than waited on, so no file here can stall or swell the turn.
      const read = await readRegularFile(target.real, INSTRUCTIONS_MAX_BYTES);
      if (read === null) continue;
      // A cut never ends inside a character, which would decode as U+FFFD.
      const text = read.bytes.subarray(0, read.cut ? wholeCharLength(read.bytes) : undefined).toString('utf8');
      return { file, text: read.cut ? `${text}\n[... ${file} cut at ${INSTRUCTIONS_MAX_BYTES} bytes]` : text };
    } catch {
      // Unreadable, not a regular file, or a link out of the workspace: try the next name.
    }
  }
  return null;
}
