import { describe, expect, it } from 'vitest';
import { reaskedNote } from '../../../../../renderer/src/components/cards/reasked-note';

describe('the note on a re-asked card', () => {
  it.each([
    ['write', 'the file changed on disk after the card went up'],
    ['write', 'the file on disk changed'],
    ['write', 'The file changed after the last card; this is the diff as it is now.'],
    ['read', 'the path changed.'],
    ['command', 'something changed'],
    ['write', '  '],
    // The core's reasons for the MCP kinds (electron/core/gate/card-body.ts).
    ['mcp', 'the tool (or its server) changed after the card went up'],
    ['mcp_server', "the server's config changed after the card went up"],
  ] as const)('leaves out a %s reason that only repeats the fixed sentence: %j', (kind, reason) => {
    expect(reaskedNote(kind, reason).detail).toBeNull();
  });

  it.each([
    ['write', 'the file was deleted after the card went up'],
    ['write', 'the path now lands at /w/b.ts instead of /w/a.ts'],
    ['write', 'after the restart: the file changed on disk after the card went up'],
    ['command', 'the working folder now lands at /w/x instead of /w'],
    ['read', 'the file changed'],
  ] as const)('keeps a %s reason that adds something: %j', (kind, reason) => {
    expect(reaskedNote(kind, reason).detail).toBe(reason);
  });

  it('says a write card asked again keeps the person’s edits, and still drops a reason that only repeats it', () => {
    expect(reaskedNote('write', 'the file changed on disk after the card went up', true)).toEqual({
      fixed: 'Your edits are kept; the file changed on disk, this is the diff as it is now.',
      detail: null,
    });
    expect(reaskedNote('write', 'the file was deleted after the card went up', true).detail).toBe(
      'the file was deleted after the card went up',
    );
  });
});
