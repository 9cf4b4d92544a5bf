/**
 * The editor of a write card's proposal: CodeMirror 6, loaded on demand (ProposalEditor
 * imports this file lazily, so the first load of the window does not carry it). It renders
 * only the lines in view, so a 256 KiB file (the write limit) edits as smoothly as a small
 * one.
 *
 * Keys: CodeMirror's standard editing keys and undo history, and nothing else. Tab is left
 * to move focus out (no indentWithTab), and the window's shortcuts (Ctrl+T, Ctrl+W, Esc…)
 * are caught before the editor sees them (useShortcuts listens in the capture phase). The
 * card's own answer keys never fire from here: PermissionCard ignores keys typed in it.
 * Colours are the window's CSS variables, so it follows the light and dark themes.
 *
 * Line endings come back as they went in. By default CodeMirror splits on \r\n, \r and \n
 * and joins with \n, which would turn a CRLF file into LF the moment a word is edited; so a
 * file whose every break is \r\n is split and joined on \r\n, and any other on \n alone
 * (a stray \r then stays in its line, shown as a special character).
 *
 * Bidi controls, zero-width and other invisible characters show as the diff shows them
 * (editor-special-chars.ts), so the text the person allows is the text they saw.
 */
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { EditorState } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { showHiddenChars } from './editor-special-chars';

export interface CodeEditorProps {
  /** The text it starts from; later changes of this prop are ignored (the editor owns its text). */
  initial: string;
  /** The accessible name of the text area: "Your version of src/app.ts". */
  label: string;
  /** Each new value replaces the whole text with `resetText`, as one change the person can undo. */
  resets: number;
  resetText: string | null;
  /** Focus the editor once it is made (the person asked for it; never when a card appears). */
  autoFocus: boolean;
  /** The whole text after each change, and the line (1-based) the cursor is on. */
  onChange(text: string, line: number): void;
}

const theme = EditorView.theme({
  '&': {
    color: 'var(--fg)',
    backgroundColor: 'var(--code-bg)',
    border: '1px solid var(--border)',
    borderRadius: '5px',
    fontSize: '12px',
    maxHeight: '40vh',
  },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.5', overflow: 'auto' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection':
    { backgroundColor: 'color-mix(in srgb, var(--accent) 30%, transparent)' },
  '.cm-gutters': {
    backgroundColor: 'var(--bg-subtle)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--border)',
  },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--accent) 7%, transparent)' },
  '.cm-activeLineGutter': { backgroundColor: 'color-mix(in srgb, var(--accent) 12%, transparent)', color: 'var(--fg)' },
});

/** "\r\n" when every line break in the text is one, else "\n". */
export function lineSeparatorOf(text: string): string {
  const newlines = text.split('\n').length - 1;
  const crlf = text.split('\r\n').length - 1;
  const cr = text.split('\r').length - 1;
  return newlines > 0 && crlf === newlines && cr === crlf ? '\r\n' : '\n';
}

export default function CodeEditor({ initial, label, resets, resetText, autoFocus, onChange }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, initial, label, autoFocus });
  useLayoutEffect(() => {
    latest.current = { onChange, initial, label, autoFocus };
  });

  useEffect(() => {
    const { initial: doc, label: name, autoFocus: focus } = latest.current;
    const made = new EditorView({
      parent: host.current as HTMLDivElement,
      state: EditorState.create({
        doc,
        extensions: [
          EditorState.lineSeparator.of(lineSeparatorOf(doc)),
          lineNumbers(),
          showHiddenChars,
          highlightActiveLineGutter(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          EditorView.contentAttributes.of({ 'aria-label': name, spellcheck: 'false', autocapitalize: 'off' }),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            const { state } = update;
            latest.current.onChange(state.sliceDoc(), state.doc.lineAt(state.selection.main.head).number);
          }),
          theme,
        ],
      }),
    });
    view.current = made;
    if (focus) made.focus();
    return () => {
      view.current = null;
      made.destroy();
    };
  }, []);

  const appliedResets = useRef(resets);
  useEffect(() => {
    const editor = view.current;
    if (!editor || resets === appliedResets.current || resetText === null) return;
    appliedResets.current = resets;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: resetText } });
  }, [resets, resetText]);

  return <div ref={host} className="card-editor-host" />;
}
