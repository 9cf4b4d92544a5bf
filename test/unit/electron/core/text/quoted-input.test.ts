import { describe, expect, it } from 'vitest';
import { QUOTED_INPUT_MAX_CHARS, quoteInput, visibleText } from '../../../../../electron/core/text/quoted-input.js';

describe('input quoted in an error', () => {
  it('comes back whole and quoted when short and plain', () => {
    expect(quoteInput('card-1')).toBe('"card-1"');
  });

  it('writes control, direction and zero-width characters and lone surrogates as escapes', () => {
    expect(visibleText('a\u0000b\u001bc\u202Ed\u200Be\uD800f\u0085g\\h')).toBe(
      'a\\x00b\\x1Bc\\u{202E}d\\u{200B}e\\u{D800}f\\x85g\\\\h',
    );
    // A whole pair is one character, kept as it is.
    expect(visibleText('🙂 ünï')).toBe('🙂 ünï');
  });

  it(`keeps at most ${QUOTED_INPUT_MAX_CHARS} characters of a long input and says how long it was`, () => {
    const quoted = quoteInput('x'.repeat(20 * 1024 * 1024));
    expect(quoted).toBe(`"${'x'.repeat(QUOTED_INPUT_MAX_CHARS)}"… (cut; 20,971,520 characters in all)`);
    expect(quoteInput('y'.repeat(QUOTED_INPUT_MAX_CHARS))).toBe(`"${'y'.repeat(QUOTED_INPUT_MAX_CHARS)}"`);
  });
});

describe('an error of several lines', () => {
  it('keeps its line feeds and tabs when asked, and still escapes the rest', () => {
    expect(visibleText('line 1\n\tline 2\u202E\r', { keepLines: true })).toBe('line 1\n\tline 2\\u{202E}\\x0D');
  });
});
