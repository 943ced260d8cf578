import { NESTED_CHECKER, subagentRun } from '@skilltree/test-kit';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ModelRequest, SubagentRunView } from '../protocol.js';
import { Subagents } from './Subagents.js';

const request = (n: number): ModelRequest =>
  ({
    system: 'You research.',
    tools: [],
    messages: Array.from({ length: n }, () => ({ role: 'user', content: [] })),
  }) as never;

const run = (over: Partial<SubagentRunView>): SubagentRunView => ({
  ...subagentRun({ status: 'done', usage: { inputTokens: 1200, outputTokens: 34 } }),
  requests: [request(1), request(3)],
  ...over,
});

describe('Subagents', () => {
  it('shows the tree of runs, a run inside a run under it, each with its requests', () => {
    render(
      <Subagents
        runs={[
          run({ spawn: { inputTokens: 900, inheritedTokens: 0, cachedTokens: 0 } }),
          run({ ...NESTED_CHECKER, requests: [request(9)] }),
          run({
            id: 'run_c2',
            name: 'researcher',
            toolCallId: 'c2',
            status: 'failed',
            error: 'Subagent "researcher" reached maxSteps (2).',
          }),
        ]}
      />,
    );
    const top = [...document.querySelectorAll('.runs > li')].map((li) => li.getAttribute('data-run'));
    expect(top).toEqual(['run_c1', 'run_c2']);
    const nested = document.querySelector('[data-run=run_c1] [data-run=run_f1]');
    expect(nested?.textContent).toContain('checker');
    expect(nested?.textContent).toContain('fork');
    expect(document.querySelector('[data-run=run_c1] > details')?.querySelectorAll(':scope > ol > li')).toHaveLength(2);
    expect(document.querySelector('[data-run=run_c1] [data-spawn]')?.textContent).toContain('900 tokens');
    expect(screen.getByText(/reached maxSteps/)).toBeTruthy();
    expect(document.querySelector('[data-run=run_c1] summary')?.textContent).toContain('1,234 tokens · 2 requests');
  });

  it('says when no subagent has run', () => {
    render(<Subagents runs={[]} />);
    expect(screen.getByText(/No subagent has run yet/)).toBeTruthy();
  });
});
