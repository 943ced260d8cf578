/**
 * A recovered durable turn stays in its trace and links to the attempt it continues: the turn's
 * input keeps the ids of the span it was sent under (an OpenTelemetry `Context` is not JSON data),
 * its `open` step keeps the ids of the first attempt's turn span, and the recovered attempt's
 * `invoke_agent` span opens under the same parent with a link to that span. On real engines with
 * a killed process: `@skilltree/durable/testing`.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { handedOverTraced } from './traced-handover.js';
import { shutDownTracing } from './tracing.js';

afterEach(shutDownTracing);

describe('a recovered durable turn in its trace', () => {
  test('opens under the span it was sent under and links to the span of the attempt it continues', async () => {
    // The process closes (a deploy) while the tool runs: the turn is handed over, its span ends here.
    const { t, journal, turnId, request, second: secondProcess } = await handedOverTraced();
    const ids = request.spanContext();
    // The input keeps the parent's ids, not the Context object.
    const input = journal.inputs.get(turnId);
    expect(input?.parentSpan).toEqual({ traceId: ids.traceId, spanId: ids.spanId, traceFlags: 1 });
    expect(input?.traceContext).toBeUndefined();
    const { b, sessions: second } = secondProcess();
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
