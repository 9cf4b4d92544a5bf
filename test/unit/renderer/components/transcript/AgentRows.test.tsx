/** An external agent's rows in the transcript (SPEC §14): its plan as a checklist, its own reads as compact lines. */
import { render, screen, within } from '@testing-library/react';
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

function agentTool(args: unknown, result?: { ok: boolean; output: string }): TranscriptItem {
  return {
    kind: 'tool',
    seq: 4,
    turnId: 't1',
    toolCallId: 'a1',
    tool: 'agent_tool',
    args,
    ...(result ? { result } : {}),
  };
}

describe("an external agent's plan", () => {
  it('is a checklist saying each step and its state in words, and how many are done', () => {
    renderTranscript([
      {
        kind: 'plan',
        seq: 3,
        turnId: 't1',
        entries: [
          { content: 'Read the failing test', status: 'completed', priority: 'medium' },
          { content: 'Fix the limit', status: 'in_progress', priority: 'high' },
          { content: 'Run the tests', status: 'pending', priority: 'low' },
        ],
      },
    ]);
    expect(screen.getByText('Plan · 1 of 3 done')).toBeInTheDocument();
    const steps = within(screen.getByRole('list', { name: 'Plan' })).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual([
      '☑ Read the failing test (done)',
      '◐ Fix the limit (in progress, high priority)',
      '☐ Run the tests (to do)',
    ]);
  });
});

describe("an external agent's own tool call", () => {
  it('is one compact line with its kind, title, places and state, and no card or button', () => {
    const { container } = renderTranscript([
      agentTool(
        { title: 'Read src/app.ts', kind: 'read', locations: [{ path: 'src/app.ts', line: 12 }, { path: 'b.ts' }] },
        { ok: true, output: '…' },
      ),
    ]);
    const row = container.querySelector('.agent-tool-row')!;
    // The title says the verb: the kind is not said again.
    expect(row).toHaveTextContent(/^Read src\/app.ts src\/app.ts:12b.ts ✓ done$/);
    expect(within(row as HTMLElement).queryByRole('button')).toBeNull();
    expect(container.querySelector('.tool-row')).toBeNull();
  });

  it('says running while it runs, failed when it failed, and marks invisible characters in its title', () => {
    const { container, rerender } = renderTranscript([agentTool({ title: 'Search\u202e "x"', kind: 'search' })]);
    expect(container.querySelector('.agent-tool-row')).toHaveTextContent('running…');
    expect(container.querySelector('.agent-tool-title .visible-mark')).not.toBeNull();
    rerender(
      <ApiProvider api={createFakeApi().api}>
        <Transcript
          sessionId="s1"
          workspace={WORKSPACE}
          items={[agentTool({ title: 'Search', kind: 'search' }, { ok: false, output: 'no' })]}
          streaming={null}
          liveOutput={{}}
        />
      </ApiProvider>,
    );
    expect(container.querySelector('.agent-tool-row')).toHaveTextContent('✗ failed');
  });

  it('shows its kind when the title does not say it, and the places as the driver logs them (paths)', () => {
    const { container } = renderTranscript([
      agentTool({ title: 'Find tests', kind: 'search', locations: ['/w/test', '/w/spec'] }, { ok: true, output: '' }),
    ]);
    expect(container.querySelector('.agent-tool-row')).toHaveTextContent(
      /^search Find tests \/w\/test\/w\/spec ✓ done$/,
    );
  });

  it('still shows a line for args it cannot read', () => {
    const { container } = renderTranscript([agentTool(null, { ok: true, output: '' })]);
    expect(container.querySelector('.agent-tool-row')).toHaveTextContent('other a tool call ✓ done');
  });
});
