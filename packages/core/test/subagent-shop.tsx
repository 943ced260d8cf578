/**
 * The shop of the durable subagent tests: a parent that delegates to `billing` (and `refunds`),
 * runs whose models charge twice then answer, and what they asked and the keys their tool got.
 */
import { z } from 'zod';
import { Agent, createSessions, type Model, memoryStore, Subagent, Tool, type ToolCall } from '../src/index.js';
import type { DurableTurnInput } from '../src/provider.js';
import { diedMidTurn, journalEngine, type Step } from './shared-journal.js';

/** What the models were asked, in order (`parent 1`, `billing 2`). */
export const asked: string[] = [];
/** The idempotency keys the runs' `charge` tool got, in order. */
export const keys: string[] = [];
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The parent: delegates to `billing` (once, or to `billing` and `refunds` in one step, or those and
 * `billing` again), then answers.
 */
export function parentModel(calls: number): Model {
  return {
    name: 'parent',
    async generate(request) {
      const last = request.messages.at(-1);
      const step = last?.role === 'tool' ? 2 : 1;
      asked.push(`parent ${step}`);
      if (step === 2) return { text: 'Done.', toolCalls: [] };
      const toolCalls = [{ id: 'bill-1', name: 'billing', input: { task: 'Charge 500.' } }];
      if (calls >= 2) toolCalls.push({ id: 'bill-2', name: 'refunds', input: { task: 'Refund 200.' } });
      if (calls >= 3) toolCalls.push({ id: 'bill-3', name: 'billing', input: { task: 'Charge 300.' } });
      return { text: '', toolCalls };
    },
  };
}

/** A run's model: `pay-1`, then `pay-2` (both `charge`), then an answer; `delay` ms per call. */
export function subModel(name: string, delay: number): Model {
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

/**
 * A model named `name` that makes `calls` in its first step and answers `answer` once a tool's
 * result is in; with `note`, each step is noted in `asked` (`<name> 1`, `<name> 2`).
 */
export function delegating(name: string, answer: string, calls: ToolCall[], note = false): Model {
  return {
    name,
    async generate(request) {
      const done = request.messages.some((m) => m.role === 'tool');
      if (note) asked.push(`${name} ${done ? 2 : 1}`);
      return done ? { text: answer, toolCalls: [] } : { text: '', toolCalls: structuredClone(calls) };
    },
  };
}

/** The runs' `charge` tool (its key noted; `run` decides what it returns, or holds). */
type Charge = (cents: number, key: string) => string | Promise<string>;

export function Shop({
  slow = 0,
  models,
  charge: run = (cents) => `charged ${cents}`,
}: {
  slow?: number;
  models?: { billing: Model; refunds: Model };
  charge?: Charge;
}) {
  const charge = (
    <Tool
      name="charge"
      description="Charges the card"
      input={z.object({ cents: z.number() })}
      run={({ cents }, ctx) => {
        keys.push(ctx.idempotencyKey);
        return run(cents, ctx.idempotencyKey);
      }}
    />
  );
  return (
    <Agent>
      <Subagent name="billing" description="Charges cards" model={models?.billing ?? subModel('billing', slow)}>
        {charge}
      </Subagent>
      <Subagent name="refunds" description="Refunds cards" model={models?.refunds ?? subModel('refunds', 0)}>
        {charge}
      </Subagent>
    </Agent>
  );
}

export const input: DurableTurnInput = { id: 'c1', owner: null, input: 'Charge me' };

/** The first attempt of turn `t` of chat `c1`: the store it left and the steps it recorded. */
export async function firstTurn(calls: number, slow = 0, children = false) {
  const store = memoryStore();
  const first = journalEngine({ numbered: true, children });
  const sessions = createSessions(<Shop slow={slow} />, { store, model: parentModel(calls), engine: first.engine });
  asked.length = 0;
  keys.length = 0;
  await sessions.send('c1', 'Charge me');
  await sessions.close();
  return { store, journal: first.recorded(), children: first.children() };
}

/** Turn `t` recovered by another process from `steps` (and its children's `childSteps`), its first attempt having died. */
export async function recoverFrom(
  store: ReturnType<typeof memoryStore>,
  calls: number,
  steps: Step[],
  slow = 0,
  childSteps?: Record<string, Step[]>,
) {
  const second = journalEngine({ numbered: true, children: childSteps !== undefined });
  const other = createSessions(<Shop slow={slow} />, { store, model: parentModel(calls), engine: second.engine });
  asked.length = 0;
  keys.length = 0;
  await diedMidTurn(store, 'c1');
  const turn = (await second.recover('t', input, steps, childSteps)) as { text: string };
  return { other, turn, journal: second.recorded(), children: second.children() };
}
