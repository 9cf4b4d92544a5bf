import { describe, expect, it } from 'vitest';
import { followableUrl } from '../../../../../renderer/src/components/transcript/link-policy';
import { lastLines } from '../../../../../renderer/src/components/transcript/LiveOutput';
import { toolSummary } from '../../../../../renderer/src/components/transcript/tool-summary';

describe('the few words of a tool row', () => {
  it('names the path, the pattern, or the argv', () => {
    expect(toolSummary('read_file', { path: 'src/a.ts' })).toEqual({ kind: 'text', text: 'src/a.ts' });
    expect(toolSummary('grep', { pattern: 'TODO', path: 'src' })).toEqual({ kind: 'text', text: 'TODO in src' });
    expect(toolSummary('run', { argv: ['npm', 'test'] })).toEqual({ kind: 'argv', argv: ['npm', 'test'] });
  });

  it('copes with arguments it does not know, or that live in a blob', () => {
    expect(toolSummary('list_dir', {})).toEqual({ kind: 'text', text: '' });
    expect(toolSummary('run', { argv: 'not an array' })).toEqual({ kind: 'text', text: '' });
    expect(toolSummary('write_file', { blob: 'abc' })).toEqual({ kind: 'text', text: '(arguments stored separately)' });
    expect(toolSummary('finish', null)).toEqual({ kind: 'text', text: '' });
  });
});

describe('the last lines of live output', () => {
  it('keeps the last n lines and counts the characters before them', () => {
    expect(lastLines('a\nb\nc', 2)).toEqual({ shown: 'b\nc', hiddenChars: 2 });
    expect(lastLines('a\nb\nc', 3)).toEqual({ shown: 'a\nb\nc', hiddenChars: 0 });
    expect(lastLines('', 5)).toEqual({ shown: '', hiddenChars: 0 });
  });
});

describe('which links may be followed', () => {
  it('only https', () => {
    expect(followableUrl('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    for (const href of [
      'http://example.com',
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'file:///etc',
      '/relative',
      '',
      undefined,
    ]) {
      expect(followableUrl(href)).toBeNull();
    }
  });
});
