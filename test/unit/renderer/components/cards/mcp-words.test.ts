/** The pure pieces of the MCP cards: annotations in words, compact JSON, the line diff. */
import { describe, expect, it } from 'vitest';
import { compactJson, compactJsonText } from '../../../../../renderer/src/components/cards/compact-json';
import { toolTextDiff, sortedJson } from '../../../../../renderer/src/components/cards/tool-text-diff';
import { annotationWords } from '../../../../../renderer/src/components/cards/mcp-annotations';

describe("a tool's annotations in words", () => {
  it("reads MCP's hints as plain words, yes or no", () => {
    expect(
      annotationWords({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true }),
    ).toEqual(['read-only', 'not destructive', 'idempotent', 'reaches outside systems']);
    expect(annotationWords({ readOnlyHint: false })).toEqual(['may change things']);
  });

  it('shows anything else as its key and value, cut short', () => {
    expect(annotationWords({ title: 'Search', readOnlyHint: 'yes' })).toEqual(['title: Search', 'readOnlyHint: yes']);
    const long = annotationWords({ note: 'x'.repeat(200) })[0]!;
    expect(Array.from(long)).toHaveLength('note: '.length + 80);
    expect(long.endsWith('…')).toBe(true);
    expect(annotationWords(undefined)).toEqual([]);
  });
});

describe('compact JSON', () => {
  it('is one line, cut with an ellipsis at the limit', () => {
    expect(compactJson({ a: 1, b: [true, null] })).toBe('{"a":1,"b":[true,null]}');
    expect(compactJson({ text: 'y'.repeat(100) }, 20)).toBe('{"text":"yyyyyyyyyy…');
    expect(compactJsonText('{\n  "a": 1\n}')).toBe('{"a":1}');
    expect(compactJsonText('not json')).toBe('not json');
  });
});

describe('the line diff of what a tool said before and now', () => {
  it('marks inserted and deleted lines, with the rest as context', () => {
    const diff = toolTextDiff('one\ntwo\nthree', 'one\n2\nthree\nfour');
    expect(diff).toEqual({
      kind: 'diff',
      rows: [
        { type: 'context', text: 'one' },
        { type: 'delete', text: 'two' },
        { type: 'insert', text: '2' },
        { type: 'context', text: 'three' },
        { type: 'insert', text: 'four' },
      ],
      hiddenRows: 0,
      added: 2,
      deleted: 1,
    });
  });

  it('never shows a last line as changed for a missing final newline', () => {
    expect(toolTextDiff('a\nb', 'a\nb\n')).toMatchObject({ added: 0, deleted: 0 });
  });

  it('caps the rows and says how many are hidden', () => {
    const before = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    const diff = toolTextDiff(before, `${before}\nmore`, 400);
    expect(diff).toMatchObject({ kind: 'diff', hiddenRows: 101, added: 1 });
    expect(diff.kind === 'diff' && diff.rows).toHaveLength(400);
  });

  it('gives up on texts too large to diff in bounds', () => {
    expect(toolTextDiff('a'.repeat(70_000), 'b'.repeat(70_000))).toEqual({ kind: 'too_big' });
  });

  it('writes a schema with its keys sorted, so a reordering is no change', () => {
    expect(sortedJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
      '{\n  "a": {\n    "c": null,\n    "d": [\n      {\n        "y": 2,\n        "z": 1\n      }\n    ]\n  },\n  "b": 1\n}',
    );
    expect(sortedJson(undefined)).toBe('undefined');
  });
});
