/**
 * A recovered durable turn stays in its trace and links to the attempt it continues: the turn's
 * input keeps the ids of the span it was sent under (an OpenTelemetry `Context` is not JSON data),
 * its `open` step keeps the ids of the first attempt's turn span, and the recovered attempt's
 * `invoke_agent` span opens under the same parent with a link to that span. On real engines with
 * a killed process: `@skilltree/durable/testing`.
 */
import { context, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, test } from 'vitest';
import { Agent, createSessions, type Model, memoryStore, Tool } from '../src/index.js';
import { sharedJournal } from './shared-journal.js';
import { shutDownTracing, tracing } from './tracing.js';

afterEach(shutDownTracing);

const model: Model = {
  async generate(req) {
    if (req.messages.at(-1)?.role === 'tool') return { text: 'Charged.', toolCalls: [] };
    return { text: '', toolCalls: [{ id: 'pay-1', name: 'charge', input: {} }] };
  },
};

const shop = (run: () => Promise<string>) => (
  <Agent>
    <Tool name="charge" description="Charges the card" run={run} />
  </Agent>
);

describe('a recovered durable turn in its trace', () => {
  test('opens under the span it was sent under and links to the span of the attempt it continues', async () => {
    const t = tracing();
    const journal = sharedJournal();
    const store = memoryStore();
    let started = () => {};
    const inTool = new Promise<void>((resolve) => (started = resolve));
    const a = journal.process();
    const first = createSessions(
      shop(() => {
        started();
        return new Promise<string>(() => {});
      }),
      { store, model, engine: a.engine, telemetry: { tracer: t.tracer } },
    );
    const request = t.tracer.startSpan('request');
    const sending = first
      .send('c1', 'Charge me', { traceContext: trace.setSpan(context.active(), request) })
      .catch(() => {});
    await inTool;
    // The process closes (a deploy): the turn is handed over, its span ends here.
    await first.close({ timeout: 0 });
    await sending;
    const [{ turnId }] = a.runs;
    const ids = request.spanContext();
    // The input keeps the parent's ids, not the Context object.
    const input = journal.inputs.get(turnId);
    expect(input?.parentSpan).toEqual({ traceId: ids.traceId, spanId: ids.spanId, traceFlags: 1 });
    expect(input?.traceContext).toBeUndefined();
    const b = journal.process();
    const second = createSessions(
      shop(async () => 'charged'),
      { store, model, engine: b.engine, telemetry: { tracer: t.tracer } },
    );
    await b.recover(turnId);
    const turns = t.exporter.getFinishedSpans().filter((s) => s.name === 'invoke_agent');
    expect(turns).toHaveLength(2);
    const [dead, recovered] = turns;
    expect(recovered.spanContext().traceId).toBe(ids.traceId);
    expect(recovered.parentSpanContext?.spanId).toBe(ids.spanId);
    expect(recovered.links.map((l) => [l.context.traceId, l.context.spanId, l.attributes])).toEqual([
      [dead.spanContext().traceId, dead.spanContext().spanId, { 'skilltree.link.type': 'recovered_from' }],
    ]);
    expect(recovered.attributes['skilltree.turn.recovered']).toBe(true);
    // The first attempt is not a recovery: no link.
    expect(dead.links).toEqual([]);
    expect(dead.attributes['skilltree.turn.recovered']).toBeUndefined();
    request.end();
    await second.close();
  });
});
