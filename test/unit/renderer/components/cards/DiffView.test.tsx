import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { buildRows } from '../../../../../renderer/src/components/cards/diff-rows';
import { DiffView } from '../../../../../renderer/src/components/cards/DiffView';
import { stubLayout } from '../layout-stub';
import { bigDiff } from './card-fixtures';

stubLayout();

describe('the diff view', () => {
  it('puts only the rows in view into the DOM, however long the diff', () => {
    const diff = bigDiff(7, 1078);
    const rows = buildRows(diff);
    expect(rows.split.length).toBeGreaterThan(1000);
    const { container } = render(<DiffView cardId="big" diff={diff} />);
    const inDom = container.querySelectorAll('.diff-view-row').length;
    expect(inDom).toBeGreaterThan(10);
    expect(inDom).toBeLessThan(80);
  });

  it('marks changed lines with + and - as well as colour', () => {
    const { container } = render(
      <DiffView cardId="small" diff={'--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n keep\n-old\n+new\n'} />,
    );
    const del = container.querySelector('.d2h-del');
    const ins = container.querySelector('.d2h-ins');
    expect(del).toHaveTextContent('-old');
    expect(ins).toHaveTextContent('+new');
  });

  it('pairs deletions with the insertions that replace them, side by side', () => {
    const rows = buildRows('--- a/x\n+++ b/x\n@@ -1,3 +1,2 @@\n-a\n-b\n+c\n ctx\n');
    const pairs = rows.split.filter((r) => r.kind === 'pair');
    expect(pairs.map((p) => [p.left?.text ?? null, p.right?.text ?? null])).toEqual([
      ['a', 'c'],
      ['b', null],
      ['ctx', 'ctx'],
    ]);
  });

  it('says when a line has no newline at its end, which diff2html would hide', () => {
    render(
      <DiffView cardId="eol" diff={'--- a/x\n+++ b/x\n@@ -1 +1 @@\n-end\n\\ No newline at end of file\n+end\n'} />,
    );
    expect(screen.getAllByTitle('No newline at end of file')).toHaveLength(1);
  });

  it('shows hidden characters in file content, so a bidi trick cannot hide in a line', () => {
    render(<DiffView cardId="bidi" diff={'--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+if (isAdmin\u202E) {\n'} />);
    expect(screen.getAllByTitle('right-to-left override (U+202E)').length).toBeGreaterThan(0);
  });

  it('switches to line by line with both line numbers', async () => {
    const { container } = render(<DiffView cardId="toggle" diff={'--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n'} />);
    await userEvent.click(screen.getByRole('button', { name: 'Line by line' }));
    const lines = [...container.querySelectorAll('.diff-view-line')].map((l) => l.textContent);
    expect(lines).toEqual(['1-a', '1+b']);
  });
});
