import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ArgvTokens } from '../../../../../renderer/src/components/cards/ArgvTokens';

function tokensOf(argv: string[]) {
  const { container } = render(<ArgvTokens argv={argv} />);
  const list = within(container).getByRole('list', { name: 'Command and arguments' });
  return { list, items: within(list).getAllByRole('listitem') };
}

describe('argv tokens', () => {
  it('shows each argv element as its own token', () => {
    const { items } = tokensOf(['git', 'commit', '-m', 'fix the tests']);
    expect(items.map((i) => i.textContent)).toEqual(['git', 'commit', '-m', 'fix the tests']);
  });

  it('marks spaces at the edges of a token, but not inside it', () => {
    const { items } = tokensOf([' rm', 'a b ']);
    expect(items[0]?.textContent).toBe('␣rm');
    expect(items[1]?.textContent).toBe('a b␣');
    expect(within(items[0] as HTMLElement).getByTitle('space at the edge (U+0020)')).toBeInTheDocument();
  });

  it('shows tab, newline, carriage return and escape as named marks', () => {
    const { items } = tokensOf(['a\tb\nc\rd\u001b[31m']);
    expect(items[0]?.textContent).toBe('a⇥b↵c\\rd\\x1B[31m');
    for (const name of [
      'tab (U+0009)',
      'line feed (newline) (U+000A)',
      'carriage return (U+000D)',
      'escape (U+001B)',
    ]) {
      expect(within(items[0] as HTMLElement).getByTitle(name)).toBeInTheDocument();
    }
  });

  it('shows bidi overrides and zero-width characters as code points in a distinct style', () => {
    const { items } = tokensOf(['file\u202Etxt.exe', 'ad\u200Bmin']);
    expect(items[0]?.textContent).toBe('file\\u{202E}txt.exe');
    expect(items[1]?.textContent).toBe('ad\\u{200B}min');
    const bidi = within(items[0] as HTMLElement).getByTitle('right-to-left override (U+202E)');
    expect(bidi).toHaveClass('visible-mark-bidi');
    expect(within(items[1] as HTMLElement).getByTitle('zero-width space (U+200B)')).toHaveClass(
      'visible-mark-invisible',
    );
    // The raw control character itself is never in the page, so it cannot reorder anything.
    expect(document.body.textContent).not.toContain('\u202E');
  });

  it('marks quotes, so a quoted argument is not mistaken for shell quoting', () => {
    const { items } = tokensOf(['echo', '"hi"', "'x'"]);
    expect(within(items[1] as HTMLElement).getAllByTitle('double quote (U+0022)')).toHaveLength(2);
    expect(within(items[2] as HTMLElement).getAllByTitle('single quote (U+0027)')).toHaveLength(2);
  });

  it('shows an empty argument rather than nothing', () => {
    const { items } = tokensOf(['printf', '']);
    expect(items).toHaveLength(2);
    expect(items[1]?.textContent).toBe('∅');
  });

  it.each([
    [
      ['rm', '-rf', 'x'],
      ['rm', '-rf x'],
    ],
    [
      ['ls', 'a'],
      ['ls', 'a '],
    ],
    [
      ['ls', 'a b'],
      ['ls', 'a\u00A0b'],
    ],
    [
      ['cat', 'a'],
      ['cat', 'a\u200B'],
    ],
    [
      ['echo', 'ab'],
      ['echo', 'a\u202Eb'],
    ],
    [['echo'], ['echo', '']],
    [
      ['x', 'a\tb'],
      ['x', 'a    b'],
    ],
  ])('renders two different argvs differently: %j vs %j', (a, b) => {
    const first = render(<ArgvTokens argv={a} />).container.innerHTML;
    const second = render(<ArgvTokens argv={b} />).container.innerHTML;
    expect(first).not.toBe(second);
    const texts = screen.getAllByRole('list').map((list) =>
      within(list)
        .getAllByRole('listitem')
        .map((i) => i.textContent),
    );
    expect(texts[0]).not.toEqual(texts[1]);
  });
});
