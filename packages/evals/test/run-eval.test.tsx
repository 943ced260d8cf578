import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Model, type ModelRequest, scriptedModel } from '@skilltree/core';
import { defineEval, type EvalProgress, type EvalSuite, oracleModel, runEval } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { Shop } from './helpers/agents.js';

const refundCase = {
  name: 'refund',
  messages: 'Refund order A-1 please',
  expect: { reads: ['refunds'], toolCalls: [{ name: 'refund', input: { orderId: 'A-1' } }], text: 'refunded' },
};
const lampCase = {
  name: 'lamp',
  messages: 'Add a lamp to my cart',
  expect: {
    reads: ['shopping'],
    toolCalls: [
      { name: 'search', input: { q: 'lamp' } },
      { name: 'add_to_cart', input: { sku: 'lamp-1' } },
    ],
    stores: { cart: { items: ['lamp-1'] } },
  },
};
const hiCase = { name: 'hello', messages: 'Hi!', expect: { reads: [], notRead: 'others' as const } };

/** A model that reads `skill` whatever the case, then answers "done". */
const alwaysReads = (skill: string) => () =>
  scriptedModel([{ toolCalls: [{ name: 'read_skill', input: { name: skill } }] }, { text: 'done' }]);

describe('runEval', () => {
  it('scores every case on every variant and reports the deltas against the first variant', async () => {
    const suite = defineEval({
      name: 'shop',
      agent: <Shop />,
      cases: [refundCase, lampCase, hiCase],
      variants: [
        { name: 'careless', model: alwaysReads('refunds') },
        { name: 'oracle', model: oracleModel() },
      ],
      price: { input: 3, output: 15 },
    });
    const report = await runEval(suite);
    expect(report.variants.map((v) => v.name)).toEqual(['careless', 'oracle']);
    const [careless, oracle] = report.variants;
    expect(oracle.metrics.success?.mean).toBe(1);
    expect(oracle.metrics['selection.recall']?.mean).toBe(1);
    expect(oracle.metrics['selection.precision']?.mean).toBe(1);
    expect(oracle.metrics.tools?.mean).toBe(1);
    // careless reads refunds everywhere: right for "refund", wrong for "lamp" and "hello".
    expect(careless.metrics['selection.recall']?.mean).toBe(0.5);
    expect(careless.metrics['selection.precision']?.mean).toBeCloseTo(1 / 3);
    expect(careless.metrics.success?.mean).toBe(0);
    expect(careless.estimated).toBe(true);
    expect(oracle.metrics.cost?.mean).toBeGreaterThan(0);
    const recall = report.deltas.find((d) => d.metric === 'selection.recall');
    expect(recall).toMatchObject({ baseline: 'careless', variant: 'oracle', from: 0.5, to: 1, change: 0.5 });
    expect(recall?.text).toBe('selection.recall 0.50 → 1.00 (+0.50)');
    const lamp = report.cases.find((c) => c.name === 'lamp')!;
    const [trial] = lamp.variants.careless.trials;
    expect(trial.notes).toContain('selection: missed: shopping');
    expect(trial.reads).toEqual([{ name: 'refunds', ok: true, turn: 1 }]);
    expect(trial.requests).toHaveLength(2);
    expect(trial.requests[1].tools.map((t) => t.name)).toEqual(['read_skill', 'refund']);
    expect(lamp.variants.oracle.trials[0].stores).toEqual({ cart: { items: ['lamp-1'] } });
    expect(report.passed).toBe(true);
  });

  it('a case starts from the store state it names', async () => {
    const seen: string[] = [];
    const model = () =>
      scriptedModel([
        { toolCalls: [{ name: 'read_skill', input: { name: 'shopping' } }] },
        (req: ModelRequest) => {
          seen.push(req.context.match(/Cart: .*/)?.[0] ?? '');
          return { text: 'You have a desk.' };
        },
      ]);
    const report = await runEval({
      name: 'stores',
      agent: <Shop />,
      model,
      cases: [
        {
          name: 'cart',
          messages: 'What is in my cart?',
          stores: { cart: { items: ['desk'] } },
          expect: { stores: { cart: { items: ['desk'] } } },
        },
      ],
    });
    expect(seen).toEqual(['Cart: desk']);
    expect(report.variants[0].metrics.success?.mean).toBe(1);
  });

  it('repeated trials: mean and spread over rounds', async () => {
    // Odd trials read the right skill, even trials do not.
    const model = ({ trial }: { trial: number }) =>
      trial % 2 === 1 ? oracleModel()({ case: refundCase, variant: 'default', trial }) : alwaysReads('billing')();
    const report = await runEval({ name: 'flaky', agent: <Shop />, model, cases: [refundCase], trials: 4 });
    expect(report.variants[0].metrics.success).toEqual({ mean: 0.5, sd: 0.5, min: 0, max: 1, n: 4 });
    expect(report.cases[0].variants.default.trials.map((t) => t.scores.success)).toEqual([1, 0, 1, 0]);
  });

  it('a turn that fails scores 0 and the run goes on; it is not a problem of the run', async () => {
    const report = await runEval({
      name: 'short',
      agent: <Shop />,
      model: () => scriptedModel([]),
      cases: [refundCase],
    });
    const [trial] = report.cases[0].variants.default.trials;
    expect(trial.error).toMatchObject({ kind: 'turn', message: expect.stringMatching(/ran out of steps/) });
    expect(trial.scores.success).toBe(0);
    expect(report.problems).toEqual([]);
    expect(report.variants[0].errors).toEqual({ turn: 1, recording: 0, setup: 0 });
  });

  it('thresholds fail the run, naming the variant and the value', async () => {
    const report = await runEval(
      {
        name: 't',
        agent: <Shop />,
        cases: [refundCase, lampCase],
        variants: [
          { name: 'careless', model: alwaysReads('refunds') },
          { name: 'oracle', model: oracleModel() },
        ],
        thresholds: ['selection.recall >= 0.9'],
      },
      { thresholds: ['success@oracle == 1'] },
    );
    expect(report.passed).toBe(false);
    expect(report.thresholds.map((t) => [t.index, t.variant, t.passed, t.message])).toEqual([
      [0, 'careless', false, 'careless: selection.recall is 0.5, needs >= 0.9'],
      [0, 'oracle', true, undefined],
      [1, 'oracle', true, undefined],
    ]);
  });

  it('preload all: every skill is loaded before the first message and left out of selection', async () => {
    const requests: ModelRequest[] = [];
    const report = await runEval({
      name: 'layouts',
      agent: <Shop />,
      cases: [refundCase],
      variants: [
        { name: 'lru', model: oracleModel() },
        {
          name: 'all-loaded',
          preload: 'all',
          model: () =>
            scriptedModel([
              (req) => {
                requests.push(req);
                return { toolCalls: [{ name: 'refund', input: { orderId: 'A-1' } }] };
              },
              { text: 'refunded' },
            ]),
        },
      ],
    });
    expect(requests[0].tools.map((t) => t.name)).toEqual(['read_skill', 'search', 'add_to_cart', 'refund', 'charges']);
    const all = report.variants.find((v) => v.name === 'all-loaded')!;
    expect(all.metrics.success?.mean).toBe(1);
    expect(all.metrics['selection.recall']).toBeNull();
    expect(report.cases[0].variants['all-loaded'].trials[0].preloaded).toEqual(['shopping', 'refunds', 'billing']);
  });

  it('variants of the agent: another description, the same cases', async () => {
    // A model that reads the skill whose description mentions "money".
    const byDescription = () =>
      scriptedModel([
        (req) => {
          const line = req.system.split('\n').find((l) => /money/.test(l));
          const name = line?.match(/^- (\S+)/)?.[1];
          return name ? { toolCalls: [{ name: 'read_skill', input: { name } }] } : { text: 'no idea' };
        },
        { text: 'ok' },
      ]);
    const report = await runEval({
      name: 'descriptions',
      model: byDescription,
      cases: [{ ...refundCase, expect: { reads: ['refunds'] } }],
      variants: [
        { name: 'plain', agent: <Shop /> },
        { name: 'money', agent: <Shop refundsDescription="Give money back for a delivered order" /> },
      ],
    });
    expect(report.deltas.find((d) => d.metric === 'selection.recall')?.text).toBe(
      'selection.recall 0.00 → 1.00 (+1.00)',
    );
  });

  it('runs at most `concurrency` trials at once, and reports progress for each', async () => {
    let active = 0;
    let most = 0;
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const model: Model = {
      name: 'gated',
      async generate() {
        active++;
        most = Math.max(most, active);
        if (active === 2) open();
        await gate;
        active--;
        return { text: 'hi', toolCalls: [] };
      },
    };
    const events: EvalProgress[] = [];
    const report = await runEval(
      { name: 'pool', agent: <Shop />, model, cases: [hiCase], trials: 6 },
      { concurrency: 2, onProgress: (e) => events.push(e) },
    );
    expect(most).toBe(2);
    expect(report.cases[0].variants.default.trials).toHaveLength(6);
    expect(events.map((e) => e.type)).toEqual(['start', 'trial', 'trial', 'trial', 'trial', 'trial', 'trial', 'end']);
    expect(events.filter((e) => e.type === 'trial').map((e) => (e as { done: number }).done)).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
  });

  it('a case that names a skill the agent lacks is a problem of the run', async () => {
    const report = await runEval({
      name: 'typo',
      agent: <Shop />,
      model: oracleModel(),
      cases: [{ name: 'r', messages: 'x', expect: { reads: ['refund'] } }],
    });
    expect(report.passed).toBe(false);
    expect(report.problems).toEqual([
      'case "r" names "refund", not a skill of variant "default" (skills: shopping, refunds, billing)',
    ]);
  });

  it('an agent that does not mount is a problem of the run, named', async () => {
    const Broken = () => {
      throw new Error('no database');
    };
    const report = await runEval({ name: 'broken', agent: <Broken />, model: oracleModel(), cases: [hiCase] });
    expect(report.problems[0]).toMatch(/^hello \[default #1\]: The agent did not mount: .*no database/);
    expect(report.passed).toBe(false);
  });

  it('filters cases and variants; a filter that matches nothing says what there is', async () => {
    const suite: EvalSuite = {
      name: 'f',
      agent: <Shop />,
      model: oracleModel(),
      cases: [refundCase, lampCase],
      variants: [{ name: 'a' }, { name: 'b' }],
    };
    const report = await runEval(suite, { cases: ['LAMP'], variants: ['b'] });
    expect(report.cases.map((c) => c.name)).toEqual(['lamp']);
    expect(report.variants.map((v) => v.name)).toEqual(['b']);
    await expect(runEval(suite, { variants: ['c'] })).rejects.toThrow('No variant named c in "f" (variants: a, b).');
  });

  it('without a model it says where to set one', async () => {
    await expect(runEval({ name: 'm', agent: <Shop />, cases: [hiCase] })).rejects.toThrow(
      /No model for variant "default": set the suite's model or the variant's/,
    );
  });

  it('replaying a recording that is not there stops the run, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-none-'));
    await expect(
      runEval(
        { name: 'r', agent: <Shop />, cases: [hiCase], trials: 3 },
        { recordings: { dir, mode: 'replay' }, concurrency: 2 },
      ),
    ).rejects.toThrow(/^No recording at .*\/r\/default\/hello-1\.json: record it first/);
  });

  it("'auto' replays what is recorded and records the rest", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-auto-'));
    const calls: number[] = [];
    const model = ({ trial }: { trial: number }) => {
      calls.push(trial);
      return oracleModel()({ case: refundCase, variant: 'default', trial });
    };
    await runEval(
      { name: 'a', agent: <Shop />, model, cases: [refundCase], trials: 1 },
      { recordings: { dir, mode: 'auto' } },
    );
    const report = await runEval(
      { name: 'a', agent: <Shop />, model, cases: [refundCase], trials: 2 },
      { recordings: { dir, mode: 'auto' } },
    );
    expect(calls).toEqual([1, 2]); // trial 1 was replayed the second time
    expect(report.variants[0].metrics.success?.mean).toBe(1);
  });

  it('an abort stops the run', async () => {
    const controller = new AbortController();
    const model: Model = {
      async generate() {
        controller.abort();
        return { text: 'hi', toolCalls: [] };
      },
    };
    await expect(
      runEval(
        { name: 'stop', agent: <Shop />, model, cases: [hiCase], trials: 5 },
        { signal: controller.signal, concurrency: 1 },
      ),
    ).rejects.toThrow(/was stopped after 1 of 5 trials/);
  });
});
