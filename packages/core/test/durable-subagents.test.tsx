/**
 * SPEC §19 + §21, subagent runs of a durable turn on an engine without child workflows: a run is a
 * child scope of its turn's journal (engines with children: durable-subagent-children.test.tsx).
 * Its model calls and tool runs are steps named by its call path (`sub/<callId>/model-2`), the
 * parent's call of it is recorded once the run ends, a recovered turn replays the run's recorded
 * steps and asks only what was not recorded, and its tools' keys carry the call path. The runs of
 * one step run side by side and start their steps in rounds, in call order, so an engine that
 * numbers its steps (as DBOS and Restate do) replays them whatever finished first.
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createSessions,
  DurableReplayError,
  type Model,
  memoryStore,
  Subagent,
  Tool,
  TurnHandedOverError,
} from '../src/index.js';
import { diedMidTurn, journalEngine, sharedJournal } from './shared-journal.js';
import {
  asked,
  delegating,
  firstTurn,
  input,
  keys,
  parentModel,
  recoverFrom,
  Shop,
  subModel,
} from './subagent-shop.js';

describe('subagent runs are child scopes of their durable turn', () => {
  test("a run's model calls and tool runs are steps under its call's scope, and its call is recorded once the run ends", async () => {
    const { journal } = await firstTurn(1);
    expect(journal.map((s) => s.name)).toEqual([
      'open',
      'model-1',
      'sub/bill-1/model-1',
      'sub/bill-1/tool-charge-pay-1',
      'sub/bill-1/model-2',
      'sub/bill-1/tool-charge-pay-2',
      'sub/bill-1/model-3',
      'tool-billing-bill-1',
      'model-2',
    ]);
    expect(journal.at(-2)?.value).toMatchObject({ content: 'billing done.' });
  });

  test('a run killed after two of its model calls asks only the third; its unrecorded tool runs again with the same key', async () => {
    const { store, journal } = await firstTurn(1);
    const before = [...keys];
    // The process died while the run's second tool ran: its model had been asked twice.
    const cut = journal.findIndex((s) => s.name === 'sub/bill-1/model-2') + 1;
    const { other, turn } = await recoverFrom(store, 1, journal.slice(0, cut));
    expect(turn.text).toBe('Done.');
    expect(asked).toEqual(['billing 3', 'parent 2']);
    expect(keys).toEqual([before[1]]);
    expect(before[1]).toMatch(/^c1\/.+\/bill-1\/pay-2$/);
    const runs = await other.subagentRuns('c1');
    expect(runs.map((r) => [r.name, r.toolCallId, r.status])).toEqual([['billing', 'bill-1', 'done']]);
    expect((await other.messages('c1')).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    await other.close();
  });

  test('a turn recovered after its run ended replays the run without asking its model or running its tools', async () => {
    const { store, journal } = await firstTurn(1);
    const cut = journal.findIndex((s) => s.name === 'tool-billing-bill-1') + 1;
    const { other } = await recoverFrom(store, 1, journal.slice(0, cut));
    expect(asked).toEqual(['parent 2']);
    expect(keys).toEqual([]);
    expect((await other.subagentRuns('c1')).length).toBe(1);
    await other.close();
  });

  test('two runs of one step start their steps in rounds, in call order, and replay so whatever their timing', async () => {
    // `billing` is slow: had each run started its steps as it went, `refunds` would have started its own first.
    const { store, journal } = await firstTurn(2, 20);
    const names = journal.map((s) => s.name);
    expect(names).toEqual([
      'open',
      'model-1',
      'sub/bill-1/model-1',
      'sub/bill-2/model-1',
      'sub/bill-1/tool-charge-pay-1',
      'sub/bill-2/tool-charge-pay-1',
      'sub/bill-1/model-2',
      'sub/bill-2/model-2',
      'sub/bill-1/tool-charge-pay-2',
      'sub/bill-2/tool-charge-pay-2',
      'sub/bill-1/model-3',
      'sub/bill-2/model-3',
      // The parent records the calls' results once both runs have ended, in call order.
      'tool-billing-bill-1',
      'tool-refunds-bill-2',
      'model-2',
    ]);
    // Two runs whose models name their calls alike get different keys: the call path keeps them apart.
    expect(new Set(keys).size).toBe(4);
    expect(keys.filter((k) => k.endsWith('/pay-1'))).toEqual([
      expect.stringMatching(/\/bill-1\/pay-1$/),
      expect.stringMatching(/\/bill-2\/pay-1$/),
    ]);
    // Died in the second round of tools; recovered (now `billing` is fast), the steps replay in their recorded order.
    const cut = names.indexOf('sub/bill-2/model-2') + 1;
    const { other, journal: again } = await recoverFrom(store, 2, journal.slice(0, cut), 0);
    expect(asked).toEqual(['billing 3', 'refunds 3', 'parent 2']);
    expect(again.map((s) => s.name)).toEqual(names);
    const runs = await other.subagentRuns('c1');
    expect(runs.map((r) => [r.toolCallId, r.status])).toEqual([
      ['bill-1', 'done'],
      ['bill-2', 'done'],
    ]);
    await other.close();
  });

  test('a run inside a run records one scope deeper, and its tools key by the whole call path', async () => {
    const outer = delegating('outer', 'outer done.', [{ id: 'in-1', name: 'inner', input: { task: 'Charge.' } }], true);
    const parent = delegating('parent', 'Done.', [{ id: 'out-1', name: 'outer', input: { task: 'Delegate.' } }]);
    function Nested() {
      return (
        <Agent>
          <Subagent name="outer" description="Delegates" model={outer}>
            <Subagent name="inner" description="Charges" model={subModel('inner', 0)}>
              <Tool
                name="charge"
                description="Charges the card"
                input={z.object({ cents: z.number() })}
                run={(_input, ctx) => {
                  keys.push(ctx.idempotencyKey);
                  return 'charged';
                }}
              />
            </Subagent>
          </Subagent>
        </Agent>
      );
    }
    const first = journalEngine({ numbered: true });
    const sessions = createSessions(<Nested />, { store: memoryStore(), model: parent, engine: first.engine });
    keys.length = 0;
    await sessions.send('c1', 'Charge me');
    const names = first.recorded().map((s) => s.name);
    expect(names).toContain('sub/out-1/sub/in-1/tool-charge-pay-1');
    expect(names).toContain('sub/out-1/tool-inner-in-1');
    expect(names.indexOf('sub/out-1/tool-inner-in-1')).toBeLessThan(names.indexOf('tool-outer-out-1'));
    expect(keys[0]).toMatch(/^c1\/.+\/out-1\/in-1\/pay-1$/);
    await sessions.close();
  });

  test("a run that renders another request than its recorded one stops the turn with DurableReplayError naming the run's step", async () => {
    const { store, journal } = await firstTurn(1);
    const cut = journal.findIndex((s) => s.name === 'sub/bill-1/model-1') + 1;
    const tampered = structuredClone(journal.slice(0, cut));
    (tampered.at(-1)!.value as { request: string }).request = 'another request';
    const second = journalEngine({ numbered: true });
    const other = createSessions(<Shop />, { store, model: parentModel(1), engine: second.engine });
    asked.length = 0;
    const recovering = second.recover('t', input, tampered);
    await expect(recovering).rejects.toThrow(DurableReplayError);
    await expect(recovering).rejects.toThrow(/step sub\/bill-1\/model-1/);
    expect(asked).toEqual([]);
    await other.close();
  });

  test("without an engine a run's tools key by the call path too, and the runs of one step still start together", async () => {
    const sessions = createSessions(<Shop slow={20} />, { store: memoryStore(), model: parentModel(2) });
    asked.length = 0;
    keys.length = 0;
    await sessions.send('c1', 'Charge me');
    expect(keys.filter((k) => k.endsWith('/pay-1')).sort()).toEqual([
      expect.stringMatching(/^c1\/.+\/bill-1\/pay-1$/),
      expect.stringMatching(/^c1\/.+\/bill-2\/pay-1$/),
    ]);
    // `refunds` was asked before slow `billing` got its answer: side by side.
    expect(asked.indexOf('refunds 1')).toBeLessThan(asked.indexOf('billing 2'));
    await sessions.close();
  });
});

/** Resolves, for every caller, once `count` callers have called it: each waits until all are there. */
function meeting(count: number): () => Promise<void> {
  let arrived = 0;
  let open = () => {};
  const all = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++arrived === count) open();
    return all;
  };
}

/** A promise per key, made on first use by either side: one side waits on it, the other resolves it. */
function signals() {
  const made = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  return (key: string) => {
    let entry = made.get(key);
    if (!entry) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      entry = { promise, resolve };
      made.set(key, entry);
    }
    return entry;
  };
}

/**
 * A run's model as `subModel` makes it, with `before(call)` awaited before it answers call `call`
 * (1, 2, 3) and `after(call)` told once it has: a test holds or orders the runs through them.
 */
function heldModel(
  name: string,
  before: (call: number) => Promise<void> | void,
  after: (call: number) => void = () => {},
): Model {
  return {
    name,
    async generate(request) {
      const tools = request.messages.filter((m) => m.role === 'tool').length;
      asked.push(`${name} ${tools + 1}`);
      await before(tools + 1);
      const answer =
        tools >= 2
          ? { text: `${name} done.`, toolCalls: [] }
          : { text: '', toolCalls: [{ id: `pay-${tools + 1}`, name: 'charge', input: { cents: 100 } }] };
      after(tools + 1);
      return answer;
    },
  };
}

describe('the runs of one step run side by side on an engine, their steps starting in rounds', () => {
  test('their model calls and their tool runs overlap: each run waits in its first of both until the other is there too', async () => {
    // Were the runs one after another, the first would wait for the second forever.
    const models = meeting(2);
    const tools = meeting(2);
    const both = {
      billing: heldModel('billing', (call) => (call === 1 ? models() : undefined)),
      refunds: heldModel('refunds', (call) => (call === 1 ? models() : undefined)),
    };
    const engine = journalEngine({ numbered: true });
    const sessions = createSessions(
      <Shop
        models={both}
        charge={async (cents, key) => {
          if (key.endsWith('/pay-1')) await tools();
          return `charged ${cents}`;
        }}
      />,
      { store: memoryStore(), model: parentModel(2), engine: engine.engine },
    );
    asked.length = 0;
    const turn = await sessions.send('c1', 'Charge me');
    expect(turn.text).toBe('Done.');
    expect(engine.recorded().map((s) => s.name)).toContain('tool-refunds-bill-2');
    expect((await sessions.subagentRuns('c1')).map((r) => r.status)).toEqual(['done', 'done']);
    await sessions.close();
  });

  test('the steps of a round start in the same order whatever finishes first', async () => {
    const orders: string[][] = [];
    const finished: string[][] = [];
    for (const last of ['billing', 'refunds'] as const) {
      // The run named `last` answers each model call only once the other run has answered its own of that round.
      const answered = signals();
      const model = (name: string) =>
        heldModel(
          name,
          (call) => (name === last ? answered(`${call}`).promise : undefined),
          (call) => (name === last ? undefined : answered(`${call}`).resolve()),
        );
      const journal = sharedJournal();
      const process = journal.process();
      const sessions = createSessions(<Shop models={{ billing: model('billing'), refunds: model('refunds') }} />, {
        store: memoryStore(),
        model: parentModel(2),
        engine: process.engine,
      });
      await sessions.send('c1', 'Charge me');
      const [{ turnId }] = process.runs;
      orders.push(journal.order(turnId));
      finished.push(journal.recorded(turnId).filter((name) => name.endsWith('model-1') && name.startsWith('sub/')));
      await sessions.close();
    }
    // The runs finished their calls in opposite orders, and their steps started in one order.
    expect(finished).toEqual([
      ['sub/bill-2/model-1', 'sub/bill-1/model-1'],
      ['sub/bill-1/model-1', 'sub/bill-2/model-1'],
    ]);
    expect(orders[1]).toEqual(orders[0]);
    expect(orders[0].slice(2, 6)).toEqual([
      'sub/bill-1/model-1',
      'sub/bill-2/model-1',
      'sub/bill-1/tool-charge-pay-1',
      'sub/bill-2/tool-charge-pay-1',
    ]);
  });

  test('a turn killed mid-round and recovered in another process asks each model once per step and runs each side effect once', async () => {
    const journal = sharedJournal();
    const store = memoryStore();
    // The payment service: a key it has seen is not charged again.
    const effects = new Set<string>();
    const pay = (cents: number, key: string) => {
      effects.add(key);
      return `charged ${cents}`;
    };
    const held = signals();
    const a = journal.process();
    const dying = createSessions(
      <Shop
        charge={(cents, key) => {
          // `refunds`' first charge never ends in this process: it dies there.
          if (!key.endsWith('/bill-2/pay-1')) return pay(cents, key);
          effects.add(key);
          held('tool').resolve();
          return new Promise<string>(() => {});
        }}
      />,
      { store, model: parentModel(2), engine: a.engine },
    );
    asked.length = 0;
    keys.length = 0;
    const sending = dying.send('c1', 'Charge me').catch((error: unknown) => error);
    await held('tool').promise;
    // `billing` goes one round further (its second model call), then waits for `refunds` to start its next step.
    await journal.whenRecorded('sub/bill-1/model-2');
    // The process goes away mid-round: nothing more is recorded there, and its lease is free.
    await dying.close({ timeout: 0 });
    expect(await sending).toBeInstanceOf(TurnHandedOverError);
    expect(asked.sort()).toEqual(['billing 1', 'billing 2', 'parent 1', 'refunds 1']);
    const [{ turnId }] = a.runs;
    const b = journal.process();
    const taking = createSessions(<Shop charge={pay} />, { store, model: parentModel(2), engine: b.engine });
    asked.length = 0;
    const turn = (await b.recover(turnId)) as { text: string };
    expect(turn.text).toBe('Done.');
    // Only what was not recorded is asked: every model once per step over both processes.
    expect(asked.sort()).toEqual(['billing 3', 'parent 2', 'refunds 2', 'refunds 3']);
    // `refunds`' first charge ran again with its key; every charge happened once.
    expect(keys.filter((k) => k.endsWith('/bill-2/pay-1'))).toHaveLength(2);
    expect(new Set(keys.filter((k) => k.endsWith('/bill-2/pay-1'))).size).toBe(1);
    expect(keys).toHaveLength(5);
    expect(effects.size).toBe(4);
    expect((await taking.messages('c1')).map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    expect((await taking.subagentRuns('c1')).map((r) => [r.toolCallId, r.status])).toEqual([
      ['bill-1', 'done'],
      ['bill-2', 'done'],
    ]);
    await taking.close();
  });

  test('subagentConcurrency holds in a round: a run waiting for a slot joins when the cursor sees a run end', async () => {
    const engine = journalEngine({ numbered: true });
    const sessions = createSessions(<Shop slow={20} />, {
      store: memoryStore(),
      model: parentModel(3),
      engine: engine.engine,
      subagentConcurrency: 2,
    });
    await sessions.send('c1', 'Charge me');
    const names = engine.recorded().map((s) => s.name);
    const of = (call: string) => names.filter((n) => n.startsWith(`sub/${call}/`));
    // The third run starts its first step only after the first two have started their last.
    expect(names.indexOf('sub/bill-3/model-1')).toBeGreaterThan(names.indexOf('sub/bill-2/model-3'));
    expect(of('bill-3')).toHaveLength(5);
    expect(names.slice(-4)).toEqual(['tool-billing-bill-1', 'tool-refunds-bill-2', 'tool-billing-bill-3', 'model-2']);
    await sessions.close();
  });

  test("a run's charges of the owner's spend are steps of its own scope, numbered by the run", async () => {
    const engine = journalEngine({ numbered: true });
    const sessions = createSessions(<Shop />, {
      store: memoryStore(),
      model: parentModel(2),
      engine: engine.engine,
      budget: { perOwner: { tokens: 1_000_000, period: 'day' } },
    });
    await sessions.send('c1', 'Charge me', { owner: 'ada' });
    const names = engine.recorded().map((s) => s.name);
    const spend = (prefix: string) => names.filter((n) => n.startsWith(prefix) && n.includes('spend-'));
    expect(spend('sub/bill-1/')).toEqual(spend('sub/bill-2/').map((n) => n.replace('bill-2', 'bill-1')));
    expect(spend('sub/bill-1/').slice(0, 3)).toEqual([
      'sub/bill-1/spend-read-1',
      'sub/bill-1/spend-reserve-2',
      'sub/bill-1/spend-settle-3',
    ]);
    await sessions.close();
  });

  test('runs of a round that run rounds of their own start every step in one order on every attempt', async () => {
    // The parent calls `desk` twice in one step; each `desk` run calls `billing` and `refunds` in one step.
    const desk = delegating('desk', 'desk done.', [
      { id: 'in-1', name: 'billing', input: { task: 'Charge.' } },
      { id: 'in-2', name: 'refunds', input: { task: 'Refund.' } },
    ]);
    const parent = delegating('parent', 'Done.', [
      { id: 'out-1', name: 'desk', input: { task: 'One.' } },
      { id: 'out-2', name: 'desk', input: { task: 'Two.' } },
    ]);
    // Both inner runs have the same `charge` tool.
    const charge = (
      <Tool name="charge" description="Charges the card" input={z.object({ cents: z.number() })} run={() => 'ok'} />
    );
    const Desks = ({ slow }: { slow: number }) => (
      <Agent>
        <Subagent name="desk" description="Delegates" model={desk}>
          <Subagent name="billing" description="Charges cards" model={subModel('billing', slow)}>
            {charge}
          </Subagent>
          <Subagent name="refunds" description="Refunds cards" model={subModel('refunds', 0)}>
            {charge}
          </Subagent>
        </Subagent>
      </Agent>
    );
    const first = journalEngine({ numbered: true });
    const store = memoryStore();
    const sessions = createSessions(<Desks slow={20} />, { store, model: parent, engine: first.engine });
    await sessions.send('c1', 'Go');
    const names = first.recorded().map((s) => s.name);
    // Each of the four inner runs: three model calls and two charges.
    expect(names.filter((n) => n.includes('/sub/in-'))).toHaveLength(20);
    // Recovered halfway, with the other timing: the same steps in the same order, and the turn ends.
    const second = journalEngine({ numbered: true });
    const other = createSessions(<Desks slow={0} />, { store, model: parent, engine: second.engine });
    const cut = Math.floor(names.length / 2);
    await diedMidTurn(store, 'c1');
    const turn = (await second.recover(
      't',
      { id: 'c1', owner: null, input: 'Go' },
      first.recorded().slice(0, cut),
    )) as {
      text: string;
    };
    expect(turn.text).toBe('Done.');
    expect(second.recorded().map((s) => s.name)).toEqual(names);
    await sessions.close();
    await other.close();
  });
});
