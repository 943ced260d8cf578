/**
 * What each part of the tree cost, per case: each request of a trial keeps its `attribution`, the
 * trial sums them part by part, the HTML report shows both, and `attributionScorer` makes metrics
 * of the sums so variants compare part by part.
 */
import { scriptedModel } from '@skilltree/core';
import { attributionScorer, renderHtml, runEval, runTrial, sumAttributions } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { Shop } from './helpers/agents.js';

const refundScript = () =>
  scriptedModel([
    { toolCalls: [{ name: 'read_skill', input: { name: 'refunds' } }] },
    { toolCalls: [{ name: 'refund', input: { orderId: 'A-1' } }] },
    { text: 'Refunded.' },
  ]);

describe('attribution in evals', () => {
  it("a trial keeps each request's attribution, and their sum part by part", async () => {
    const evalCase = { name: 'refund', messages: ['Refund A-1'] };
    const trial = await runTrial({
      evalCase,
      variant: 'v',
      trial: 1,
      agent: <Shop />,
      model: refundScript(),
      options: {},
    });
    const costs = trial.requests.map((r) => r.attribution);
    expect(costs).toHaveLength(3);
    // The refunds skill is loaded from the second request on; its tool costs the same on each.
    expect(costs[0]?.skills).toEqual({});
    expect(costs[1]?.skills.refunds.tools).toBeGreaterThan(0);
    expect(costs[2]?.skills.refunds.tools).toBe(costs[1]?.skills.refunds.tools);
    const sum = trial.attribution;
    expect(sum?.total).toBe(costs.reduce((n, a) => n + (a?.total ?? 0), 0));
    expect(sum?.catalog).toBe(costs.reduce((n, a) => n + (a?.catalog ?? 0), 0));
    expect(sum?.skills.refunds.tools).toBe(2 * (costs[1]?.skills.refunds.tools ?? 0));
    expect(sumAttributions([])).toBeNull();
  });

  it('attributionScorer reports each part summed over the trial, and the HTML report shows it per request', async () => {
    const report = await runEval({
      name: 'shop',
      agent: <Shop />,
      cases: [{ name: 'refund', messages: 'Refund A-1', expect: { reads: ['refunds'] } }],
      variants: [{ name: 'scripted', model: refundScript }],
      scorers: [attributionScorer],
    });
    const trial = report.cases[0].variants.scripted.trials[0];
    expect(trial.scores['attribution.total']).toBe(trial.attribution?.total);
    expect(trial.scores['attribution.skills']).toBe(trial.attribution?.skills.refunds.total);
    expect(trial.scores['attribution.catalog']).toBeGreaterThan(0);
    expect(report.metrics.map((m) => m.id)).toContain('attribution.transcript');
    const html = renderHtml(report);
    expect(html).toMatch(
      /request 2 · 3 messages · tools: read_skill, refund · [\d,]+ tokens: .*skill refunds [\d,]+ \(tools [\d,]+\)/,
    );
    expect(html).toContain('what each part cost over 3 requests: ');
  });
});
