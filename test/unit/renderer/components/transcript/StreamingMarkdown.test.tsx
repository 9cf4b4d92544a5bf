import { render } from '@testing-library/react';
import type * as ReactMarkdownModule from 'react-markdown';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Markdown } from '../../../../../renderer/src/components/transcript/Markdown';
import { StreamingMarkdown } from '../../../../../renderer/src/components/transcript/StreamingMarkdown';
import { splitStreamBlocks } from '../../../../../renderer/src/components/transcript/stream-blocks';

/** Every text react-markdown was asked to parse, in order: a parse is a render of it. */
const parsed = vi.hoisted(() => [] as string[]);
vi.mock('react-markdown', async (importOriginal) => {
  const actual = await importOriginal<typeof ReactMarkdownModule>();
  const Original = actual.default;
  return {
    ...actual,
    default: (props: Parameters<typeof Original>[0]) => {
      parsed.push(String(props.children));
      return Original(props);
    },
  };
});

const FENCED = [
  'Here is the plan.',
  '',
  '```ts',
  'const a = 1;',
  '',
  'const b = 2;',
  '```',
  '',
  '1. first',
  '',
  '2. second',
  '',
  'Done with **that**.',
  '',
  'Now the last',
].join('\n');

/** Blocks as parsed alone join without the newline text nodes the whole parse puts between them. */
const between = (html: string) => html.replace(/>\s+</g, '><');

describe('streamed markdown', () => {
  beforeEach(() => {
    parsed.length = 0;
  });

  it('never cuts inside a code fence, before a list item or before an indented line', () => {
    const { blocks, tail } = splitStreamBlocks(FENCED);
    expect(blocks).toEqual([
      'Here is the plan.',
      '```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n1. first\n\n2. second',
      'Done with **that**.',
    ]);
    expect(tail).toBe('Now the last');
    expect(splitStreamBlocks('- a\n\n  more of a\n\nafter').blocks).toEqual(['- a\n\n  more of a']);
    expect(splitStreamBlocks('```\nopen\n\nstill code\n').blocks).toEqual([]);
  });

  it('waits to cut before a streaming line that may yet become a list item', () => {
    expect(splitStreamBlocks('para\n\n1')).toEqual({ blocks: [], tail: 'para\n\n1' });
    expect(splitStreamBlocks('para\n\n1. item\n')).toEqual({ blocks: [], tail: 'para\n\n1. item\n' });
    expect(splitStreamBlocks('para\n\nNe')).toEqual({ blocks: ['para'], tail: 'Ne' });
  });

  it('parses only the tail again when only the tail changed, and keeps the finished DOM', () => {
    const { container, rerender } = render(<StreamingMarkdown text={FENCED} />);
    const firstBlock = container.querySelector('.md > p');
    expect(firstBlock).toHaveTextContent('Here is the plan.');
    parsed.length = 0;

    rerender(<StreamingMarkdown text={FENCED + ' words'} />);
    rerender(<StreamingMarkdown text={FENCED + ' words and more'} />);

    expect(parsed).toEqual(['Now the last words', 'Now the last words and more']);
    expect(container.querySelector('.md > p')).toBe(firstBlock);
    expect(container).toHaveTextContent('Now the last words and more');
  });

  it('parses a newly finished block once, and the earlier blocks not at all', () => {
    const { rerender } = render(<StreamingMarkdown text={FENCED} />);
    parsed.length = 0;
    rerender(<StreamingMarkdown text={FENCED + '\n\nNext'} />);
    expect(parsed).toEqual(['Now the last', 'Next']);
  });

  it('renders the same as the whole text parsed at once, fence with a blank line included', () => {
    const whole = render(<Markdown text={FENCED} />).container;
    const streamed = render(<StreamingMarkdown text={FENCED} />).container;
    expect(streamed.querySelectorAll('pre')).toHaveLength(1);
    expect(streamed.querySelector('pre')).toHaveTextContent('const a = 1; const b = 2;', { normalizeWhitespace: true });
    expect(streamed.querySelector('pre')?.textContent).toBe('const a = 1;\n\nconst b = 2;');
    expect(streamed.querySelectorAll('ol li')).toHaveLength(2);
    expect(between(streamed.innerHTML)).toBe(between(whole.innerHTML));
  });
});
