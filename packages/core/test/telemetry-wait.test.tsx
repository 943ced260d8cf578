/**
 * The wait in the trace: a call that waits for a person (or a client) ends its turn with no model
 * call after it (nothing is spent while it waits), and the turn that answers it records the wait as
 * a `wait_tool {tool}` span that starts when the call started waiting, kept with the call, so a wait
 * that outlived its process (a snapshot, a store) still shows its true length. Checked with the real
 * SDK and its in-memory exporter.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, test } from 'vitest';
import { createSession, restoreSession, scriptedModel } from '../src/index.js';
import { OrderRefunds } from './refunds.js';
import { type SpanOrder, shutDownTracing, tracing } from './tracing.js';

afterEach(shutDownTracing);

const millis = (time: [number, number]) => time[0] * 1000 + time[1] / 1e6;

/** The spans under each `invoke_agent`, one list per turn, children in start order. */
function turns(spans: readonly ReadableSpan[], order: SpanOrder): string[][] {
  return spans
    .filter((s) => s.name === 'invoke_agent')
    .sort(order.byStart)
    .map((turn) =>
      spans
        .filter((s) => s.parentSpanContext?.spanId === turn.spanContext().spanId)
        .sort(order.byStart)
        .map((s) => s.name),
    );
}

const ran: string[] = [];
const Refunds = () => <OrderRefunds ran={ran} />;

const script = () =>
  scriptedModel([{ toolCalls: [{ id: 'r1', name: 'refund', input: { order: 'A-1' } }] }, { text: 'Refunded.' }]);

describe('the wait in the trace', () => {
  test('a turn that ends waiting makes no model call after the call that waits: nothing is spent while it waits', async () => {
    const t = tracing();
    const session = createSession(<Refunds />, { model: script(), telemetry: { tracer: t.tracer } });
    await session.send('refund A-1');
    expect(turns(t.exporter.getFinishedSpans(), t.order)).toEqual([['chat scripted']]);
    const [turn] = t.exporter.getFinishedSpans().filter((s) => s.name === 'invoke_agent');
    expect(turn.attributes['skilltree.turn.waiting']).toEqual(['refund:approval']);
  });

  test('the answering turn records the wait as a wait_tool span from when the call started waiting to the answer', async () => {
    const t = tracing();
    const session = createSession(<Refunds />, { model: script(), telemetry: { tracer: t.tracer } });
    const waited = await session.send('refund A-1');
    const since = waited.waiting?.[0].since as number;
    await session.approve('r1');
    const spans = t.exporter.getFinishedSpans();
    expect(turns(spans, t.order)).toEqual([
      ['chat scripted'],
      ['wait_tool refund', 'execute_tool refund', 'chat scripted'],
    ]);
    const wait = spans.find((s) => s.name === 'wait_tool refund') as ReadableSpan;
    expect(wait.attributes).toMatchObject({
      'skilltree.operation.name': 'wait_tool',
      'gen_ai.tool.name': 'refund',
      'gen_ai.tool.call.id': 'r1',
      'skilltree.wait.for': 'approval',
      'skilltree.wait.answer': 'approve',
    });
    expect(millis(wait.startTime)).toBeCloseTo(since, 0);
    // It ends when the answer came, before the tool it let run (in the order the spans ended and
    // started, not by their clock ticks).
    const run = spans.find((s) => s.name === 'execute_tool refund') as ReadableSpan;
    expect(t.order.ended(wait)).toBeLessThan(t.order.started(run));
  });

  test('a denial and a superseding message end the wait too, each saying how', async () => {
    const t = tracing();
    const model = scriptedModel([
      { toolCalls: [{ id: 'r1', name: 'refund', input: { order: 'A-1' } }] },
      { text: 'Not refunded.' },
      { toolCalls: [{ id: 'r2', name: 'refund', input: { order: 'B-2' } }] },
      { text: 'Something else then.' },
    ]);
    const session = createSession(<Refunds />, { model, telemetry: { tracer: t.tracer } });
    await session.send('refund A-1');
    await session.deny('r1', 'over the limit');
    await session.send('refund B-2');
    await session.send('never mind');
    const answers = t.exporter
      .getFinishedSpans()
      .filter((s) => s.name === 'wait_tool refund')
      .map((s) => [s.attributes['gen_ai.tool.call.id'], s.attributes['skilltree.wait.answer']]);
    expect(answers).toEqual([
      ['r1', 'deny'],
      ['r2', 'superseded'],
    ]);
  });

  test('a wait that outlived its session (snapshot, restore) starts its span when the call started waiting, not at the restore', async () => {
    const t = tracing();
    const first = createSession(<Refunds />, { model: script(), telemetry: { tracer: t.tracer } });
    const waited = await first.send('refund A-1');
    const since = waited.waiting?.[0].since as number;
    const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
    first.dispose();
    // The next process: the call still waits, with when it began.
    const later = restoreSession(<Refunds />, snapshot, {
      model: scriptedModel([{ text: 'Refunded.' }]),
      telemetry: { tracer: t.tracer },
    });
    expect(later.waiting[0].since).toBe(since);
    const restoredAt = Date.now();
    await later.approve('r1');
    const wait = t.exporter.getFinishedSpans().find((s) => s.name === 'wait_tool refund') as ReadableSpan;
    expect(millis(wait.startTime)).toBeCloseTo(since, 0);
    expect(millis(wait.startTime)).toBeLessThanOrEqual(restoredAt);
  });

  test('a tampered snapshot cannot bend the wait: a since that is not a time is left out, one in the future starts the span no later than the answer', async () => {
    const t = tracing();
    const first = createSession(<Refunds />, { model: script() });
    await first.send('refund A-1');
    const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
    first.dispose();
    for (const since of ['yesterday', -5, null, { at: 1 }]) {
      const restored = restoreSession(
        <Refunds />,
        { ...snapshot, waiting: [{ ...snapshot.waiting[0], since }] },
        { model: script() },
      );
      expect(restored.waiting[0], String(since)).not.toHaveProperty('since');
      restored.dispose();
    }
    const future = restoreSession(
      <Refunds />,
      { ...snapshot, waiting: [{ ...snapshot.waiting[0], since: 1e15 }] },
      { model: scriptedModel([{ text: 'Refunded.' }]), telemetry: { tracer: t.tracer } },
    );
    await future.approve('r1');
    const answered = Date.now();
    const wait = t.exporter.getFinishedSpans().find((s) => s.name === 'wait_tool refund') as ReadableSpan;
    expect(millis(wait.startTime)).toBeLessThanOrEqual(answered);
    expect(wait.attributes['skilltree.wait.ms']).toBe(0);
  });
});
