import type { EvalReport as Report, TrialReport } from '@skilltree/evals';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Root } from '../App.js';
import { EvalReport } from './EvalReport.js';
import { parseReport, ReportPage } from './ReportPage.js';

const stat = (mean: number, sd = 0, n = 1) => ({ mean, sd, min: mean - sd, max: mean + sd, n });

function trial(over: Partial<TrialReport>): TrialReport {
  return {
    case: 'refund',
    variant: 'terse',
    trial: 1,
    model: 'anthropic:claude-haiku-4-5',
    messages: ['Refund A-1'],
    replies: ['I cannot find that.'],
    text: 'I cannot find that.',
    transcript: [
      { role: 'user', content: [{ type: 'text', text: 'Refund A-1 <script>alert(1)</script>' }] },
      { role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'read_skill', input: { name: 'billing' } }] },
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'read_skill',
        content: [
          { type: 'text', text: 'Loaded billing.' },
          { type: 'context-changed', changes: [{ kind: 'loaded', skill: 'billing' }] },
        ],
      },
      {
        role: 'assistant',
        content: [
          {
            type: 'reasoning',
            provider: 'anthropic',
            model: 'm',
            text: 'Nothing matches.',
            providerData: { signature: 'sig' },
          },
          { type: 'text', text: 'I cannot find that.' },
        ],
      },
    ],
    requests: [],
    reads: [{ name: 'billing', ok: true, turn: 1 }],
    toolCalls: [],
    preloaded: [],
    catalog: ['refunds', 'billing'],
    loadedSkills: ['billing'],
    stores: {},
    steps: 2,
    usage: { inputTokens: 900, outputTokens: 20 },
    latencyMs: 1200,
    modelMs: 1100,
    scores: { success: 0, 'selection.recall': 0 },
    notes: ['selection: missed: refunds', 'success: refunds was not read'],
    ...over,
  };
}

/** A variant of three trials on Haiku with reported (not estimated) counts. */
function variant(name: string, metrics: Report['variants'][number]['metrics']): Report['variants'][number] {
  return {
    name,
    models: ['anthropic:claude-haiku-4-5'],
    metrics,
    trials: 3,
    errors: { turn: 0, recording: 0, setup: 0 },
    estimated: false,
  };
}

const REPORT: Report = {
  format: 'skilltree-eval-report',
  version: 1,
  name: 'shop',
  startedAt: '2026-03-14T10:00:00.000Z',
  durationMs: 5000,
  metrics: [{ id: 'success' }, { id: 'selection.recall' }, { id: 'cost', better: 'lower', unit: 'usd' }],
  variants: [
    variant('shipped', { success: stat(1), 'selection.recall': stat(0.91, 0.05, 3), cost: stat(0.012) }),
    variant('terse', { success: stat(0.5), 'selection.recall': stat(0.62, 0.1, 3), cost: stat(0.01296) }),
  ],
  cases: [
    {
      name: 'refund',
      messages: ['Refund A-1'],
      expect: { reads: ['refunds'] },
      variants: {
        shipped: {
          metrics: { success: stat(1) },
          trials: [trial({ variant: 'shipped', scores: { success: 1 }, notes: [] })],
        },
        terse: { metrics: { success: stat(0) }, trials: [trial({})] },
      },
    },
  ],
  deltas: [
    {
      metric: 'selection.recall',
      baseline: 'shipped',
      variant: 'terse',
      from: 0.91,
      to: 0.62,
      change: -0.29,
      relative: -0.318,
      text: 'selection.recall 0.91 → 0.62 (−0.29)',
    },
  ],
  thresholds: [
    {
      index: 0,
      threshold: 'selection.recall >= 0.9',
      metric: 'selection.recall',
      variant: 'shipped',
      actual: 0.91,
      passed: true,
    },
    {
      index: 0,
      threshold: 'selection.recall >= 0.9',
      metric: 'selection.recall',
      variant: 'terse',
      actual: 0.62,
      passed: false,
      message: 'terse: selection.recall is 0.62, needs >= 0.9',
    },
  ],
  problems: [],
  passed: false,
};

const cells = (selector: string) => [...document.querySelectorAll(`${selector} td`)].map((c) => c.textContent);

describe('EvalReport', () => {
  it('shows each metric per variant with its spread, and the change from the first variant, coloured by direction', () => {
    render(<EvalReport report={REPORT} />);
    expect(cells('[data-metric="selection.recall"]')).toEqual([
      'selection.recall',
      '0.91 ±0.05',
      '0.62 ±0.10',
      '−0.29',
    ]);
    expect(cells('[data-metric="cost"]')).toEqual(['cost', '$0.0120', '$0.0130', '+8%']);
    expect(document.querySelector('[data-metric="cost"] td:last-child')?.className).toContain('bad');
    expect(screen.getByText('terse: selection.recall 0.91 → 0.62 (−0.29)')).toBeTruthy();
    expect(
      screen.getByText(/✗ selection.recall >= 0.9 \[terse\]: terse: selection.recall is 0.62, needs >= 0.9/),
    ).toBeTruthy();
    expect(screen.getByText('FAILED')).toBeTruthy();
  });

  it('marks estimated token counts and cost, and computes no change between an estimate and a reported count', () => {
    const [shipped, terse] = REPORT.variants;
    render(
      <EvalReport
        report={{ ...REPORT, variants: [shipped, { ...terse, estimated: true, offline: true }], deltas: [] }}
      />,
    );
    expect(cells('[data-metric="cost"]')).toEqual(['cost', '$0.0120', '~$0.0130', 'n/c']);
    expect(cells('[data-metric="selection.recall"]')).toEqual([
      'selection.recall',
      '0.91 ±0.05',
      '0.62 ±0.10',
      '−0.29',
    ]);
    expect(screen.getByText('n/c: an estimate is not compared with counts a provider reported')).toBeTruthy();
    expect(screen.getByText(/^latency is not scored on a scripted or replayed model/)).toBeTruthy();
  });

  it('a trial says what became of each call: approved, denied, still waiting', () => {
    const calls = [
      { name: 'refund', input: {}, ok: true, status: 'ok', answer: 'approve', result: 'done', turn: 1 },
      { name: 'refund', input: {}, ok: false, status: 'waiting', waited: 'approval', result: '', turn: 1 },
    ] as TrialReport['toolCalls'];
    const withCalls = structuredClone(REPORT);
    withCalls.cases[0].variants.terse.trials[0].toolCalls = calls;
    const { container } = render(<EvalReport report={withCalls} />);
    fireEvent.click(screen.getByRole('button', { name: /refund/ }));
    const terse = container.querySelector('[data-variant="terse"]')!;
    fireEvent.click(terse.querySelector('[data-trial="1"] button')!);
    expect(terse.textContent).toContain('tools: refund (approved), refund (waiting)');
  });

  it('a trial says what each part of the tree cost over its requests', () => {
    const withCost = structuredClone(REPORT);
    withCost.cases[0].variants.terse.trials[0].attribution = {
      total: 2400,
      instructions: 30,
      text: 0,
      tools: 0,
      catalog: 120,
      transcript: 1500,
      machinery: 50,
      skills: { billing: { instructions: 100, text: 0, tools: 600, total: 700 } },
      counted: 'estimate',
    };
    const { container } = render(<EvalReport report={withCost} />);
    fireEvent.click(screen.getByRole('button', { name: /refund/ }));
    const terse = container.querySelector('[data-variant="terse"]')!;
    fireEvent.click(terse.querySelector('[data-trial="1"] button')!);
    expect(terse.querySelector('[data-attribution]')!.textContent).toContain(
      '2,400 tokens: instructions 30 · catalog 120 · skill billing 700 (tools 600) · transcript 1,500 · machinery 50',
    );
  });

  it('a case opens to its trials with their notes, and a trial to its transcript (text, never markup)', () => {
    const { container } = render(<EvalReport report={REPORT} />);
    expect(cells('[data-case="refund"]')).toEqual(['▸ refund', '1.00', '0.00']);
    fireEvent.click(screen.getByRole('button', { name: /refund/ }));
    const terse = container.querySelector('[data-variant="terse"]')!;
    expect(terse.textContent).toContain('selection: missed: refunds');
    fireEvent.click(terse.querySelector('[data-trial="1"] button')!);
    const transcript = terse.querySelector('[data-transcript]')!;
    expect(transcript.textContent).toContain('Refund A-1 <script>alert(1)</script>');
    expect(transcript.querySelector('script')).toBeNull();
    expect(transcript.textContent).toContain('→ read_skill({"name":"billing"})');
    expect(transcript.textContent).toContain('Loaded billing.\ncontextChanged billing loaded');
    expect(transcript.textContent).not.toContain('sig');
  });

  /** The text the refund case's one terse trial shows, opened, when its transcript is `legacy`. */
  function legacyTranscriptText(legacy: TrialReport['transcript']): string | null {
    const refund = REPORT.cases[0];
    const old: Report = {
      ...REPORT,
      cases: [
        { ...refund, variants: { terse: { ...refund.variants.terse, trials: [trial({ transcript: legacy })] } } },
      ],
    };
    const { container } = render(<EvalReport report={old} />);
    fireEvent.click(screen.getByRole('button', { name: /refund/ }));
    const terse = container.querySelector('[data-variant="terse"]')!;
    fireEvent.click(terse.querySelector('[data-trial="1"] button')!);
    return terse.querySelector('[data-transcript]')!.textContent;
  }

  it('shows the transcript of a report written before messages had parts (string content)', () => {
    const legacy = [
      { role: 'user', content: 'Refund A-1' },
      { role: 'assistant', content: 'An old reply.' },
    ] as unknown as TrialReport['transcript'];
    expect(legacyTranscriptText(legacy)).toContain('An old reply.');
  });

  it('shows the contextChanged lines of a report written before context changes were typed', () => {
    const legacy = [
      { role: 'user', content: [{ type: 'text', text: 'Refund A-1' }] },
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'read_skill',
        content: [
          { type: 'text', text: 'Loaded billing.' },
          { type: 'context-changed', lines: ['contextChanged billing loaded'] },
        ],
      },
    ] as unknown as TrialReport['transcript'];
    expect(legacyTranscriptText(legacy)).toContain('Loaded billing.\ncontextChanged billing loaded');
  });
});

describe('the report page', () => {
  const file = (text: string) => new File([text], 'report.json', { type: 'application/json' });
  const pick = async (text: string) => {
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await act(async () => {
      fireEvent.change(input, { target: { files: [file(text)] } });
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  };

  it('opens a report picked from disk', async () => {
    render(<ReportPage />);
    await pick(JSON.stringify(REPORT));
    expect(await screen.findByText('Eval: shop')).toBeTruthy();
  });

  it('says what is wrong with a file that is not a report', async () => {
    render(<ReportPage />);
    await pick('{"hello": 1}');
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^Not an eval report: write one with skilltree eval/,
    );
    expect(parseReport('nope')).toMatchObject({ error: expect.stringMatching(/^Not JSON/) });
    expect(parseReport(JSON.stringify({ ...REPORT, version: 2 }))).toEqual({
      error: 'An eval report of version 2; this playground reads version 1.',
    });
  });

  it('#report shows the report page instead of the playground', () => {
    location.hash = '#report';
    render(<Root />);
    expect(screen.getByText(/Open a report \(JSON\)/)).toBeTruthy();
    location.hash = '';
  });
});
