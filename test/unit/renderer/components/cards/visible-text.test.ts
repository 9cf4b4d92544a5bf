import { describe, expect, it } from 'vitest';
import {
  CODE_OPTIONS,
  PROSE_OPTIONS,
  visibleString,
  visibleSegments,
  type Segment,
} from '../../../../../renderer/src/components/cards/visible-text';

const shown = (segments: Segment[]) => segments.map((s) => (s.kind === 'text' ? s.text : s.mark)).join('');

describe('visible text', () => {
  it('leaves ordinary text as one plain run', () => {
    expect(visibleSegments('src/app.ts')).toEqual([{ kind: 'text', text: 'src/app.ts' }]);
  });

  it.each([
    ['\u0000', '\\x00', 'control'],
    ['\u0007', '\\x07', 'control'],
    ['\u007F', '\\x7F', 'control'],
    ['\u0085', '\\x85', 'control'],
    ['\u009B', '\\x9B', 'control'],
    ['\u2028', '\\u{2028}', 'control'],
    ['\u200E', '\\u{200E}', 'bidi'],
    ['\u061C', '\\u{61C}', 'bidi'],
    ['\u2066', '\\u{2066}', 'bidi'],
    ['\u2069', '\\u{2069}', 'bidi'],
    ['\u2060', '\\u{2060}', 'invisible'],
    ['\uFEFF', '\\u{FEFF}', 'invisible'],
    ['\u00AD', '\\u{AD}', 'invisible'],
    ['\u{E0041}', '\\u{E0041}', 'invisible'],
    ['\u00A0', '\\u{A0}', 'space'],
    ['\u3000', '\\u{3000}', 'space'],
  ])('marks %j as %s', (ch, mark, style) => {
    const segments = visibleSegments(`a${ch}b`);
    expect(shown(segments)).toBe(`a${mark}b`);
    expect(segments[1]).toMatchObject({ kind: 'mark', style });
  });

  it('names the character for the tooltip', () => {
    expect(visibleSegments('\u202E')[0]).toMatchObject({ name: 'right-to-left override (U+202E)' });
    expect(visibleSegments('\u0001')[0]).toMatchObject({ name: 'U+0001' });
  });

  it('marks only edge spaces, and all of them', () => {
    expect(shown(visibleSegments('  a b  '))).toBe('␣␣a b␣␣');
    expect(shown(visibleSegments('   '))).toBe('␣␣␣');
  });

  it('in code keeps indentation, tabs and quotes, yet still marks what could hide', () => {
    expect(shown(visibleSegments('\tconst s = "x";', CODE_OPTIONS))).toBe('\tconst s = "x";');
    expect(shown(visibleSegments('  if (a\u202E) {', CODE_OPTIONS))).toBe('  if (a\\u{202E}) {');
    expect(visibleSegments('', CODE_OPTIONS)).toEqual([]);
  });

  it('in prose keeps quotes but marks bidi and zero-width characters', () => {
    expect(shown(visibleSegments('exactly ["a\u200Bb"]', PROSE_OPTIONS))).toBe('exactly ["a\\u{200B}b"]');
  });
});

describe('visible text in a tooltip', () => {
  it('carries the same marks as plain text', () => {
    expect(visibleString('/tmp/a\u202Eb ')).toBe('/tmp/a\\u{202E}b␣');
  });
});
