/**
 * The write card's editor shows invisible characters as the diff does (issue 31): a bidi
 * override and a zero-width space in the proposal, or typed into it, are marks the person
 * sees, named in their tooltip; every character the diff marks as bidi, invisible or an
 * odd space is one the editor marks.
 */
import { act, render } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import { describe, expect, it } from 'vitest';
import CodeEditor from '../../../../../renderer/src/components/cards/CodeEditor';
import { HIDDEN_CHARS } from '../../../../../renderer/src/components/cards/editor-special-chars';
import { CODE_OPTIONS, visibleSegments } from '../../../../../renderer/src/components/cards/visible-text';
import { stubLayout } from '../layout-stub';

stubLayout();

// CodeMirror measures text with Range rects, which jsdom does not lay out.
const noRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
Range.prototype.getClientRects ??= noRects;
Range.prototype.getBoundingClientRect ??= () => new DOMRect();

function editorWith(initial: string) {
  const view = render(
    <CodeEditor
      initial={initial}
      label="Your version of a.ts"
      resets={0}
      resetText={null}
      autoFocus={false}
      onChange={() => {}}
    />,
  );
  const marks = () =>
    [...view.container.querySelectorAll('.cm-specialChar')].map((m) => ({
      text: m.textContent,
      title: m.getAttribute('title'),
    }));
  return { view, marks };
}

describe('the proposal editor', () => {
  it('marks a bidi override and a zero-width space in the proposal, as the diff does', () => {
    const { marks } = editorWith('const ok = "admin\u202E \u2066// ok\u2069\u200B\u202B\u2060";\n');
    expect(marks()).toEqual([
      { text: '\\u{202E}', title: 'right-to-left override (U+202E)' },
      { text: '\\u{2066}', title: 'left-to-right isolate (U+2066)' },
      { text: '\\u{2069}', title: 'pop directional isolate (U+2069)' },
      { text: '\\u{200B}', title: 'zero-width space (U+200B)' },
      // Beyond CodeMirror's own list.
      { text: '\\u{202B}', title: 'right-to-left embedding (U+202B)' },
      { text: '\\u{2060}', title: 'word joiner (U+2060)' },
    ]);
  });

  it('marks them when they are typed in', () => {
    const { view, marks } = editorWith('let a = 1;\n');
    const editor = EditorView.findFromDOM(view.container.querySelector('.cm-editor') as HTMLElement);
    if (!editor) throw new Error('no editor');
    act(() => editor.dispatch({ changes: { from: 4, insert: '\u202D\uFEFF' } }));
    expect(marks()).toEqual([
      { text: '\\u{202D}', title: 'left-to-right override (U+202D)' },
      { text: '\\u{FEFF}', title: 'zero-width no-break space (BOM) (U+FEFF)' },
    ]);
  });

  it('marks every character the diff marks as bidi, invisible or an odd space', () => {
    const missed: string[] = [];
    for (let cp = 0x80; cp <= 0xe007f; cp++) {
      if (cp === 0x10000) cp = 0xe0000;
      const [segment] = visibleSegments(String.fromCodePoint(cp), CODE_OPTIONS);
      const marked = segment?.kind === 'mark' && ['bidi', 'invisible', 'space'].includes(segment.style);
      if (marked && !new RegExp(HIDDEN_CHARS.source, 'u').test(String.fromCodePoint(cp))) missed.push(cp.toString(16));
    }
    expect(missed).toEqual([]);
  });
});
