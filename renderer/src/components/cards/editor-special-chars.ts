/**
 * The write card's editor shows the characters a person could not see or could misread
 * (UI.md card rule 2) as the diff beside it does: bidi controls that reorder what is
 * shown (U+202A–U+202E, U+2066–U+2069), zero-width marks (U+200B–U+200F, U+2060, U+FEFF),
 * the other invisible ones and the spaces that are not U+0020. CodeMirror's
 * highlightSpecialChars marks only some of them by default; these are added, and every
 * mark reads as the diff's (`\u{202E}`, named in its tooltip).
 */
import { highlightSpecialChars } from '@codemirror/view';
import { CODE_OPTIONS, visibleSegments } from './visible-text';

/**
 * What visible-text.ts marks as bidi, invisible or an odd space, beyond CodeMirror's own
 * list (a test checks every such code point matches). Its source joins CodeMirror's
 * pattern, which has the `u` flag, so `\u{…}` is read as a code point.
 */
export const HIDDEN_CHARS = new RegExp(
  [
    '[\\u00a0\\u00ad\\u061c\\u115f\\u1160\\u1680\\u180e\\u2000-\\u200f\\u202a-\\u202f\\u205f-\\u2064\\u2066-\\u2069\\u3000\\u3164\\ufeff\\ufff9-\\ufffb\\u{e0000}-\\u{e007f}]',
    // Combining marks, outside the class: in one they would read as joined to the character before.
    '\\u034f',
    '[\\ufe00-\\ufe0f]',
  ].join('|'),
  'u',
);

/**
 * The mark the diff shows for a code point, as CodeMirror's widget; a code point the diff
 * does not mark gets CodeMirror's own placeholder and description, as its widget draws them.
 */
function markOf(code: number, description: string | null, placeholder: string): HTMLElement {
  const [segment] = visibleSegments(String.fromCodePoint(code), CODE_OPTIONS);
  const span = document.createElement('span');
  if (segment?.kind !== 'mark') {
    span.className = 'cm-specialChar';
    span.textContent = placeholder;
    if (description) {
      span.title = description;
      span.setAttribute('aria-label', description);
    }
    return span;
  }
  // The diff's own classes (visible-text.css): the same look in both.
  span.className = `cm-specialChar visible-mark visible-mark-${segment.style}`;
  span.textContent = segment.mark;
  span.title = segment.name;
  span.setAttribute('aria-label', segment.name);
  return span;
}

export const showHiddenChars = highlightSpecialChars({ addSpecialChars: HIDDEN_CHARS, render: markOf });
