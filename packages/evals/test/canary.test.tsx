import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSession, scriptedModel } from '@skilltree/core';
import {
  CANARY_CATALOG,
  canaryAgent,
  canaryCode,
  canaryCodes,
  canarySuite,
  catalogOf,
  oracleModel,
  runEval,
} from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { Shop } from './helpers/agents.js';

/** A model that always reads `skill`, then answers with every canary code it can see. */
const quoter = (skill: string) => () =>
  scriptedModel([
    { toolCalls: [{ name: 'read_skill', input: { name: skill } }] },
    (req) => ({ text: `Done. ${canaryCodes(`${req.system}\n${req.context}`).join(' ')}` }),
  ]);

describe('the canary suite', () => {
  it('each skill has its own code, the same every time', () => {
    expect(canaryCode('billing')).toMatch(/^CANARY-[0-9A-F]{6}$/);
    expect(canaryCode('billing')).toBe(canaryCode('billing'));
    const codes = new Set(CANARY_CATALOG.skills.map((s) => canaryCode(s.name)));
    expect(codes.size).toBe(CANARY_CATALOG.skills.length);
  });

  it("a skill's code reaches the model only once the skill is read", async () => {
    const session = createSession(canaryAgent(CANARY_CATALOG.skills));
    const before = session.request();
    expect(canaryCodes(`${before.system}${before.context}`)).toEqual([]);
    await session.readSkill('billing');
    const after = session.request();
    expect(canaryCodes(`${after.system}${after.context}`)).toEqual([canaryCode('billing')]);
    session.dispose();
  });

  it('the default catalog has overlapping descriptions, tasks for one skill, two skills and none', () => {
    const suite = canarySuite();
    const needs = suite.cases.map((c) => c.expect?.reads?.length);
    expect(needs).toContain(0);
    expect(needs).toContain(1);
    expect(needs).toContain(2);
    expect(suite.thresholds).toEqual(['selection.recall >= 0.8', 'selection.precision >= 0.8']);
  });

  it('offline, on the oracle model, every case passes: the machinery works end to end', async () => {
    const report = await runEval(canarySuite({ model: oracleModel() }));
    const [v] = report.variants;
    expect(v.metrics.success?.mean).toBe(1);
    expect(v.metrics['selection.recall']?.mean).toBe(1);
    expect(v.metrics['selection.precision']?.mean).toBe(1);
    expect(v.metrics['canary.used']?.mean).toBe(1);
    expect(report.passed).toBe(true);
  });

  it('a model that quotes what it read passes only the cases that need what it read, and never quotes an unread code', async () => {
    const report = await runEval(canarySuite({ model: quoter('billing') }));
    const success = Object.fromEntries(report.cases.map((c) => [c.name, c.variants.default.metrics.success?.mean]));
    expect(success['double charge']).toBe(1);
    expect(success['return label']).toBe(0);
    expect(success.translate).toBe(0); // it quoted billing's code where no skill was needed
    expect(report.variants[0].metrics['canary.used']?.mean).toBe(1);
    expect(report.variants[0].metrics['canary.unread']?.mean).toBe(0);
    expect(report.passed).toBe(false);
    expect(report.thresholds.filter((t) => !t.passed).map((t) => t.metric)).toEqual([
      'selection.recall',
      'selection.precision',
    ]);
  });

  it('two variants side by side: the deltas say which reads better', async () => {
    const report = await runEval(
      canarySuite({
        variants: [
          { name: 'always-billing', model: quoter('billing') },
          { name: 'oracle', model: oracleModel() },
        ],
      }),
    );
    const recall = report.deltas.find((d) => d.metric === 'selection.recall')!;
    expect(recall.variant).toBe('oracle');
    expect(recall.to).toBe(1);
    expect(recall.change).toBeGreaterThan(0);
  });

  it('your own catalog: names and descriptions taken from your agent, with your tasks', async () => {
    expect(catalogOf(<Shop />)).toEqual([
      { name: 'shopping', description: 'Find and buy products' },
      { name: 'refunds', description: 'Refund a delivered order' },
      { name: 'billing', description: 'Charges and invoices' },
    ]);
    const suite = canarySuite({
      agent: <Shop />,
      tasks: [
        { message: 'I want my money back for order A-1', needs: ['refunds'] },
        { message: 'Hi there', needs: [] },
      ],
    });
    expect(suite.cases.map((c) => c.name)).toEqual(['I want my money back for', 'Hi there']);
    const report = await runEval({ ...suite, model: oracleModel() });
    expect(report.variants[0].metrics.success?.mean).toBe(1);
  });

  it('refuses tasks that need skills the catalog lacks, and a custom catalog without tasks', () => {
    expect(() => canarySuite({ agent: <Shop />, tasks: [{ message: 'x', needs: ['refund'] }] })).toThrow(
      'canarySuite: the task "x" needs refund, not in the catalog (shopping, refunds, billing).',
    );
    expect(() => canarySuite({ agent: <Shop /> })).toThrow(/pass tasks for your catalog/);
  });

  it('runs on recorded conversations: recorded once, replayed with no model at all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-canary-'));
    const recorded = await runEval(canarySuite({ model: quoter('shipping') }), { recordings: { dir, mode: 'record' } });
    const replayed = await runEval(canarySuite(), { recordings: { dir, mode: 'replay' } });
    const means = (r: typeof recorded) => r.cases.map((c) => c.variants.default.metrics.success?.mean);
    expect(means(replayed)).toEqual(means(recorded));
    expect(replayed.problems).toEqual([]);
  });
});
