/** An MCP call in the transcript (SPEC §10): a tool row like the others, labelled "<server> · <tool>". */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../../../shared/reducer';
import { ApiProvider } from '../../../../../renderer/src/api/api-context';
import { Transcript } from '../../../../../renderer/src/components/transcript/Transcript';
import { createFakeApi } from '../../fake-api';
import { stubLayout } from '../layout-stub';
import { WORKSPACE } from '../cards/card-fixtures';

stubLayout();

function renderTranscript(items: TranscriptItem[]) {
  return render(
    <ApiProvider api={createFakeApi().api}>
      <div style={{ height: 600 }}>
        <Transcript sessionId="s1" workspace={WORKSPACE} items={items} streaming={null} liveOutput={{}} />
      </div>
    </ApiProvider>,
  );
}

const ARGS = { owner: 'me', repo: 'project', title: 'Fix the flaky test in src/api/server.test.ts', labels: ['bug'] };

function mcpCall(result?: { ok: boolean; output: string }): TranscriptItem {
  return {
    kind: 'tool',
    seq: 3,
    turnId: 't1',
    toolCallId: 'c1',
    tool: 'mcp__github__create_issue',
    args: ARGS,
    ...(result ? { result: { ...result, details: { server: 'github' } } } : {}),
  };
}

describe('an MCP call in the transcript', () => {
  it('is one row labelled server · tool, with the arguments as compact JSON, cut', () => {
    renderTranscript([mcpCall({ ok: true, output: 'Created issue #42' })]);
    const row = screen.getByRole('button', { name: /github · create_issue/ });
    expect(row.querySelector('.tool-row-name')).toHaveTextContent('github · create_issue');
    expect(row.querySelector('.tool-row-name')).toHaveAttribute('title', 'mcp__github__create_issue');
    const summary = row.querySelector('.tool-row-summary')!.textContent!;
    expect(summary.startsWith('{"owner":"me","repo":"project","title":"Fix the flaky test')).toBe(true);
    expect(summary.endsWith('…')).toBe(true);
    expect(Array.from(summary)).toHaveLength(80);
    expect(row).toHaveTextContent('✓');
    // Quotes in JSON are ordinary: no quote marks in the summary.
    expect(row.querySelector('.tool-row-summary .visible-mark-quote')).toBeNull();
  });

  it('expands to the whole arguments and the result text, like other tool outputs', async () => {
    const output = 'Created issue #42\n<a href="https://evil.example">link</a>\n';
    const { container } = renderTranscript([mcpCall({ ok: true, output })]);
    await userEvent.click(screen.getByRole('button', { name: /github · create_issue/ }));
    const pres = container.querySelectorAll('.tool-row-details pre');
    expect(pres[0]?.textContent).toBe(JSON.stringify(ARGS, null, 2));
    expect(pres[1]?.textContent).toBe(output);
    expect(container.querySelector('.tool-row-details a')).toBeNull();
    expect(within(container.querySelector('.tool-row-details') as HTMLElement).getByText('Result')).toBeInTheDocument();
  });

  it('shows an error result like other tool errors', async () => {
    const { container } = renderTranscript([mcpCall({ ok: false, output: 'Bad credentials' })]);
    const row = screen.getByRole('button', { name: /github · create_issue/ });
    expect(row).toHaveTextContent('✗');
    expect(container.querySelector('.tool-row')).toHaveClass('tool-row-failed');
    await userEvent.click(row);
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Bad credentials')).toHaveClass('tool-output-error');
  });

  it('is labelled from its name while it runs, before the result names the server', () => {
    renderTranscript([mcpCall()]);
    expect(screen.getByRole('button', { name: /github · create_issue/ })).toHaveTextContent('running…');
  });

  it('shows a changed tool whose grants were voided as a quiet divider', () => {
    renderTranscript([{ kind: 'mcp_change', seq: 4, server: 'github', tool: 'mcp__github__create_issue', voided: 2 }]);
    expect(screen.getByRole('log', { name: 'Transcript' })).toHaveTextContent(
      'The MCP tool github · create_issue changed; the 2 calls you allowed for this session no longer count. Its next call asks again and shows what changed.',
    );
  });
});
