import { type EvalExpectations, scoreToolCalls } from '@skilltree/evals';
import { describe, expect, it } from 'vitest';
import { calls, trialOf } from './helpers/trial.js';

type Out = { value?: number; metrics: Record<string, number | null>; notes: string[] };
const score = (expectations: EvalExpectations, made: [string, unknown?][]) =>
  scoreToolCalls(trialOf({ toolCalls: calls(...made) }), { name: 'c', messages: 'hi', expect: expectations }) as Out;

describe('tool-call accuracy', () => {
  const expected = [{ name: 'search', input: { q: 'lamp' } }, 'add_to_cart'];

  it('the right tools, in order, with the right input: every score 1', () => {
    const out = score({ toolCalls: expected }, [
      ['search', { q: 'lamp', limit: 3 }],
      ['add_to_cart', { sku: 'l1' }],
    ]);
    expect(out.value).toBe(1);
    expect(out.metrics).toEqual({ name: 1, input: 1, order: 1, unexpected: 0, forbidden: 0 });
    expect(out.notes).toEqual([]);
  });

  it('out of order (in-order rule): accuracy and order 0.5, tool and input 1', () => {
    const out = score({ toolCalls: expected }, [
      ['add_to_cart', { sku: 'l1' }],
      ['search', { q: 'lamp' }],
    ]);
    expect(out.value).toBe(0.5);
    expect(out.metrics).toMatchObject({ name: 1, input: 1, order: 0.5 });
    expect(out.notes).toContain('calls out of the expected order');
  });

  it("out of order is fine with order 'any' (order does not apply)", () => {
    const out = score({ toolCalls: expected, order: 'any' }, [['add_to_cart'], ['search', { q: 'lamp' }]]);
    expect(out.value).toBe(1);
    expect(out.metrics.order).toBeNull();
  });

  it('the right tool with the wrong input: tool 1, input 0, and the note says where', () => {
    const out = score({ toolCalls: [{ name: 'search', input: { q: 'lamp' } }] }, [['search', { q: 'desk' }]]);
    expect(out.value).toBe(0);
    expect(out.metrics).toMatchObject({ name: 1, input: 0, order: 0 });
    expect(out.notes).toEqual(['search input: q: expected "lamp", got "desk"']);
  });

  it('a tool never called: 0, and the note names it', () => {
    const out = score({ toolCalls: ['refund'] }, [['search', { q: 'x' }]]);
    expect(out.metrics).toMatchObject({ name: 0, input: 0, unexpected: 1 });
    expect(out.notes).toEqual(['refund was not called']);
  });

  it("'exact': an extra call counts against accuracy", () => {
    const out = score({ toolCalls: ['search'], order: 'exact' }, [['search'], ['charges']]);
    expect(out.value).toBe(0.5);
    expect(out.metrics.unexpected).toBe(1);
    expect(out.notes).toContain('2 calls made, 1 expected');
  });

  it('input matchers: RegExp, predicate and nested partial objects', () => {
    const out = score(
      {
        toolCalls: [
          { name: 'search', input: { q: /lamp/i } },
          { name: 'add_to_cart', input: { sku: (s: string) => s.startsWith('l') } },
          { name: 'refund', input: { order: { id: 'A-1' } } },
        ],
      },
      [
        ['search', { q: 'Desk LAMP' }],
        ['add_to_cart', { sku: 'l-9' }],
        ['refund', { order: { id: 'A-1', total: 3 } }],
      ],
    );
    expect(out.value).toBe(1);
  });

  it('a repeated expected call needs a call of its own', () => {
    expect(score({ toolCalls: ['search', 'search'] }, [['search']]).metrics.name).toBe(0.5);
  });

  it('forbidden tools are counted', () => {
    const out = score({ notCalled: ['refund'] }, [['refund'], ['refund'], ['search']]);
    expect(out.metrics).toEqual({ forbidden: 2 });
    expect(out.notes).toEqual(['called refund, which it must not']);
  });

  it('toolCalls: [] means no tool calls under every order: three calls score 0, and the note names them', () => {
    const made: [string, unknown?][] = [['search', { q: 'x' }], ['search', { q: 'y' }], ['charges']];
    for (const order of [undefined, 'in-order', 'any', 'exact'] as const) {
      const out = score({ toolCalls: [], ...(order ? { order } : {}) }, made);
      expect(out.value).toBe(0);
      expect(out.notes).toEqual(['no tool calls expected, 3 made: search, search, charges']);
    }
    expect(score({ toolCalls: [] }, []).value).toBe(1);
  });

  it('an expected call counts only when its tool ran: one that waits, was denied or refused did nothing', () => {
    const trial = (status: 'waiting' | 'denied' | 'not-run' | 'error') =>
      trialOf({ toolCalls: [{ ...calls(['refund', { orderId: 'A-1' }])[0], ok: false, status }] });
    const evalCase = {
      name: 'c',
      messages: 'hi',
      expect: { toolCalls: [{ name: 'refund', input: { orderId: 'A-1' } }] },
    };
    for (const status of ['waiting', 'denied', 'not-run'] as const) {
      const out = scoreToolCalls(trial(status), evalCase) as Out;
      expect(out.value).toBe(0);
      expect(out.metrics).toMatchObject({ name: 1, input: 1, order: 0 });
      expect(out.notes[0]).toMatch(/^refund was called but never ran: /);
    }
    // A tool that ran and threw was called as expected; what it did is for the other checks.
    expect((scoreToolCalls(trial('error'), evalCase) as Out).value).toBe(1);
  });

  it('does not apply to a case that expects no tool calls', () => {
    expect(score({}, [['search']])).toBeNull();
  });
});
