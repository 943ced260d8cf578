/**
 * SPEC §19 + §21, subagent runs of a durable turn: a run is a child scope of its turn's journal.
 * Its model calls and tool runs are steps named by its call path (`sub/<callId>/model-2`), the
 * parent's call of it is recorded once the run ends, a recovered turn replays the run's recorded
 * steps and asks only what was not recorded, its tools' keys carry the call path, and the runs of
 * one step replay in call order on an engine that numbers its steps (as DBOS and Restate do).
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { Agent, createSessions, DurableReplayError, type Model, memoryStore, Subagent, Tool } from '../src/index.js';
import type { DurableTurnInput } from '../src/provider.js';
import { journalEngine, type Step } from './shared-journal.js';

const asked: string[] = [];
const keys: string[] = [];
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The parent: delegates to `billing` (once, or to `billing` and `refunds` in one step), then answers. */
function parentModel(calls: number): Model {
  return {
    name: 'parent',
    async generate(request) {
      const last = request.messages.at(-1);
      const step = last?.role === 'tool' ? 2 : 1;
      asked.push(`parent ${step}`);
      if (step === 2) return { text: 'Done.', toolCalls: [] };
      const toolCalls = [{ id: 'bill-1', name: 'billing', input: { task: 'Charge 500.' } }];
      if (calls === 2) toolCalls.push({ id: 'bill-2', name: 'refunds', input: { task: 'Refund 200.' } });
      return { text: '', toolCalls };
    },
  };
}

/** A run's model: `pay-1`, then `pay-2` (both `charge`), then an answer; `delay` ms per call. */
function subModel(name: string, delay: number): Model {
  return {
    name,
    async generate(request) {
      const tools = request.messages.filter((m) => m.role === 'tool').length;
      asked.push(`${name} ${tools + 1}`);
      await tick(delay);
      if (tools >= 2) return { text: `${name} done.`, toolCalls: [] };
      return { text: '', toolCalls: [{ id: `pay-${tools + 1}`, name: 'charge', input: { cents: 100 } }] };
    },
  };
}

function Shop({ slow = 0 }: { slow?: number }) {
  const charge = (
    <Tool
      name="charge"
      description="Charges the card"
      input={z.object({ cents: z.number() })}
      run={({ cents }, ctx) => {
        keys.push(ctx.idempotencyKey);
        return `charged ${cents}`;
      }}
    />
  );
  return (
    <Agent>
      <Subagent name="billing" description="Charges cards" model={subModel('billing', slow)}>
        {charge}
      </Subagent>
      <Subagent name="refunds" description="Refunds cards" model={subModel('refunds', 0)}>
        {charge}
      </Subagent>
    </Agent>
  );
}

const input: DurableTurnInput = { id: 'c1', owner: null, input: 'Charge me' };

async function firstTurn(calls: number, slow = 0) {
  const store = memoryStore();
  const first = journalEngine({ numbered: true });
  const sessions = createSessions(<Shop slow={slow} />, { store, model: parentModel(calls), engine: first.engine });
  asked.length = 0;
  keys.length = 0;
  await sessions.send('c1', 'Charge me');
  await sessions.close();
  return { store, journal: first.recorded() };
}

async function recoverFrom(store: ReturnType<typeof memoryStore>, calls: number, steps: Step[], slow = 0) {
  const second = journalEngine({ numbered: true });
  const other = createSessions(<Shop slow={slow} />, { store, model: parentModel(calls), engine: second.engine });
  asked.length = 0;
  keys.length = 0;
  const turn = (await second.recover('t', input, steps)) as { text: string };
  return { other, turn, journal: second.recorded() };
}

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

  test('two runs of one step replay in call order on an engine that numbers its steps, whatever their timing', async () => {
    // `billing` is slow: run side by side, `refunds` would record its steps first.
    const { store, journal } = await firstTurn(2, 20);
    const names = journal.map((s) => s.name);
    expect(names.indexOf('tool-billing-bill-1')).toBeLessThan(names.indexOf('sub/bill-2/model-1'));
    // Two runs whose models name their calls alike get different keys: the call path keeps them apart.
    expect(new Set(keys).size).toBe(4);
    expect(keys.filter((k) => k.endsWith('/pay-1'))).toEqual([
      expect.stringMatching(/\/bill-1\/pay-1$/),
      expect.stringMatching(/\/bill-2\/pay-1$/),
    ]);
    // Died in `refunds`' second tool; recovered (now `billing` is fast), the steps replay in their recorded order.
    const cut = names.indexOf('sub/bill-2/model-2') + 1;
    const { other, journal: again } = await recoverFrom(store, 2, journal.slice(0, cut), 0);
    expect(asked).toEqual(['refunds 3', 'parent 2']);
    expect(again.map((s) => s.name)).toEqual(names);
    const runs = await other.subagentRuns('c1');
    expect(runs.map((r) => [r.toolCallId, r.status])).toEqual([
      ['bill-1', 'done'],
      ['bill-2', 'done'],
    ]);
    await other.close();
  });

  test('a run inside a run records one scope deeper, and its tools key by the whole call path', async () => {
    const outer: Model = {
      name: 'outer',
      async generate(request) {
        const done = request.messages.some((m) => m.role === 'tool');
        asked.push(`outer ${done ? 2 : 1}`);
        return done
          ? { text: 'outer done.', toolCalls: [] }
          : { text: '', toolCalls: [{ id: 'in-1', name: 'inner', input: { task: 'Charge.' } }] };
      },
    };
    const parent: Model = {
      name: 'parent',
      async generate(request) {
        const done = request.messages.some((m) => m.role === 'tool');
        return done
          ? { text: 'Done.', toolCalls: [] }
          : { text: '', toolCalls: [{ id: 'out-1', name: 'outer', input: { task: 'Delegate.' } }] };
      },
    };
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
