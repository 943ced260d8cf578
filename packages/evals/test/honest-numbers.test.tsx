import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Model } from '@skilltree/core';
import { formatTable, type ModelContext, oracleModel, renderHtml, runEval } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { Shop } from './helpers/agents.js';

const hi = { name: 'hello', messages: 'Hi!', expect: { reads: [], text: 'Done' } };
const bye = { name: 'bye', messages: 'Bye!', expect: { reads: [] } };

/** A model that reports its own usage, as a provider does. */
const reporting: Model = {
  name: 'reporting',
  async generate() {
    return { text: 'Done.', toolCalls: [], usage: { inputTokens: 1200, outputTokens: 30 } };
  },
};

describe('latency is a difference between variants only when a model took the time', () => {
  it('on a scripted model it is not scored, so run order and concurrency cannot show as a variant difference', async () => {
    const report = await runEval(
      {
        name: 'offline',
        agent: <Shop />,
        cases: [hi, bye],
        variants: [
          { name: 'a', model: oracleModel() },
          { name: 'b', model: oracleModel() },
        ],
        trials: 3,
      },
      { concurrency: 2 },
    );
    for (const v of report.variants) {
      expect(v.offline).toBe(true);
      expect(v.metrics.latency).toBeUndefined();
      expect(v.metrics['latency.model']).toBeUndefined();
    }
    expect(report.deltas.filter((d) => d.metric.startsWith('latency'))).toEqual([]);
    expect(report.cases[0].variants.a.trials.every((t) => t.offline === true)).toBe(true);
    expect(formatTable(report)).toContain(
      "latency is not scored on a scripted or replayed model: its time is the harness's, not a model's",
    );
  });

  it('a replayed conversation is offline too; the model it was recorded from is not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-latency-'));
    const suite = { name: 'timed', agent: <Shop />, model: reporting, cases: [hi] };
    const recorded = await runEval(suite, { recordings: { dir, mode: 'record' } });
    expect(recorded.variants[0].offline).toBe(false);
    expect(recorded.variants[0].metrics.latency?.mean).toBeGreaterThanOrEqual(0);
    const replayed = await runEval(suite, { recordings: { dir, mode: 'replay' } });
    expect(replayed.variants[0].offline).toBe(true);
    expect(replayed.variants[0].metrics.latency).toBeUndefined();
  });

  it('no variant always runs first: which goes first turns with each case and round', async () => {
    const order: string[] = [];
    const model = (context: ModelContext) => {
      order.push(`${context.case.name}:${context.variant}`);
      return oracleModel()(context);
    };
    await runEval(
      { name: 'turns', agent: <Shop />, model, cases: [hi, bye], variants: [{ name: 'a' }, { name: 'b' }], trials: 2 },
      { concurrency: 1 },
    );
    expect(order).toEqual(['hello:a', 'hello:b', 'bye:b', 'bye:a', 'hello:a', 'hello:b', 'bye:b', 'bye:a']);
  });
});

describe('token counts estimated from characters are labelled, and not compared with reported ones', () => {
  it('the table marks the estimates and computes no change between an estimate and a reported count', async () => {
    const report = await runEval({
      name: 'mixed',
      agent: <Shop />,
      cases: [hi],
      variants: [
        { name: 'oracle', model: oracleModel() },
        { name: 'real', model: reporting },
      ],
      price: { input: 1, output: 5 },
    });
    const [oracle, real] = report.variants;
    expect([oracle.estimated, real.estimated]).toEqual([true, false]);
    const metrics = report.deltas.map((d) => d.metric);
    expect(metrics.filter((m) => m.startsWith('tokens') || m === 'cost')).toEqual([]);
    expect(metrics).toContain('success');
    const table = formatTable(report, { metrics: ['success', 'tokens.input', 'cost'], summaryOnly: true });
    const row = (metric: string) => table.split('\n').find((l) => l.startsWith(metric));
    expect(row('tokens.input')).toMatch(/^tokens\.input\s+~\d[\d,]*\s+1,200\s+n\/c$/);
    expect(row('cost')).toMatch(/^cost\s+~\$\S+\s+\$0\.00135\s+n\/c$/);
    expect(row('success')).toMatch(/^success\s+1\.00\s+1\.00\s+±0\.00$/);
    expect(table).toContain('~ estimated from characters by a scripted model, not counted by a provider');
    expect(table).toContain('n/c: an estimate is not compared with counts a provider reported');
    const html = renderHtml(report);
    expect(html).toContain('n/c: an estimate is not compared with counts a provider reported');
  });
});
