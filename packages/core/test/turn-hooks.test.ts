/**
 * A turn's hooks composed as one: budgets, traces and the wait each are a hook the loop calls at
 * the same few points. Starts run in order, ends in reverse, the first hook's wrapper is outermost,
 * and one hook failing to end never keeps the others from ending.
 */
import { describe, expect, test } from 'vitest';
import { composeHooks, type ModelCallEvents, type TurnHook } from '../src/observe/turn-hooks.js';
import type { ModelResponse } from '../src/types/model.js';
import type { ModelRequest } from '../src/types/request.js';
import type { SessionEvent } from '../src/types/session.js';

function recorder(name: string, log: string[], overrides: Partial<TurnHook> = {}): TurnHook {
  return {
    start: () => void log.push(`${name}.start`),
    beforeModelCall: () => void log.push(`${name}.before`),
    async *aroundModelCall(_call, inner) {
      log.push(`${name}.around-in`);
      const response = yield* inner;
      log.push(`${name}.around-out`);
      return response;
    },
    afterModelCall: () => void log.push(`${name}.after`),
    toolCall: () => () => void log.push(`${name}.tool-end`),
    end: () => void log.push(`${name}.end`),
    ...overrides,
  };
}

/** A hook step that fails with `message`, as a store that is down or a budget used up does. */
const throwing = (message: string) => () => {
  throw new Error(message);
};

async function* model(log: string[]): ModelCallEvents {
  log.push('model');
  yield { type: 'text-delta', text: 'hi' } as SessionEvent;
  return { text: 'hi', toolCalls: [] } as ModelResponse;
}

const call = { request: {} as ModelRequest, step: 1, turnUsage: undefined };

describe('turn hooks', () => {
  test('starts run in order, ends in reverse; the first hook wraps the model call outermost', async () => {
    const log: string[] = [];
    const hooks = composeHooks([recorder('trace', log), recorder('budget', log)]);
    await hooks.start();
    await hooks.beforeModelCall(call);
    const events = hooks.aroundModelCall(call, model(log));
    let next = await events.next();
    while (!next.done) next = await events.next();
    expect(next.value.text).toBe('hi');
    await hooks.afterModelCall(null);
    hooks.toolCall({ id: 'c', name: 't', input: {} })({ role: 'tool', toolCallId: 'c', name: 't', content: [] });
    await hooks.end({});
    expect(log).toEqual([
      'trace.start',
      'budget.start',
      'trace.before',
      'budget.before',
      'trace.around-in',
      'budget.around-in',
      'model',
      'budget.around-out',
      'trace.around-out',
      'trace.after',
      'budget.after',
      'budget.tool-end',
      'trace.tool-end',
      'budget.end',
      'trace.end',
    ]);
  });

  test('a hook that throws at the end never keeps the others from ending', async () => {
    const log: string[] = [];
    const hooks = composeHooks([recorder('trace', log), recorder('budget', log, { end: throwing('store down') })]);
    await hooks.end({ error: new Error('the turn failed') });
    expect(log).toEqual(['trace.end']);
  });

  test('a hook that refuses at the start (a budget used up) stops the hooks after it from starting', async () => {
    const log: string[] = [];
    const hooks = composeHooks([
      recorder('trace', log),
      recorder('budget', log, { start: throwing('budget used up') }),
      recorder('later', log),
    ]);
    await expect(hooks.start()).rejects.toThrow('budget used up');
    expect(log).toEqual(['trace.start']);
  });
});
