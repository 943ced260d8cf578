/**
 * The span ids a durable turn keeps (its input's `parentSpan`, its `open` step's `span`) come back
 * from the engine's database, so a recovered turn treats them as hostile: ids that are not hex, of
 * the wrong length, a megabyte long, objects or arrays, or trace flags that are not a number are
 * not linked. The turn runs and ends as always, its span opens (in a trace of its own), and
 * nothing throws; nor does a tracer whose spans throw. Tested with the in-memory engine (`shared-journal.ts`) and the memory store.
 */

import type { Tracer } from '@opentelemetry/api';
import { afterEach, describe, expect, test } from 'vitest';
import { createSessions, memoryStore } from '../src/index.js';
import { sharedJournal } from './shared-journal.js';
import { chargeModel, chargeShop, handedOverTraced } from './traced-handover.js';
import { shutDownTracing, tracing } from './tracing.js';

afterEach(shutDownTracing);

const HEX32 = 'ab'.repeat(16);
const HEX16 = 'cd'.repeat(8);
const MEGABYTE = 'a'.repeat(1 << 20);

/** Hostile span ids, as a tampered journal may hold them. */
const hostile: [string, unknown][] = [
  ['not hex', { traceId: 'z'.repeat(32), spanId: 'y'.repeat(16) }],
  ['upper-case hex', { traceId: HEX32.toUpperCase(), spanId: HEX16.toUpperCase() }],
  ['the wrong length', { traceId: HEX32.slice(2), spanId: `${HEX16}00` }],
  ['all zero', { traceId: '0'.repeat(32), spanId: '0'.repeat(16) }],
  ['a megabyte long', { traceId: MEGABYTE, spanId: MEGABYTE }],
  ['objects for ids', { traceId: { length: 32 }, spanId: ['cd'] }],
  ['a string', `00-${HEX32}-${HEX16}-01`],
  ['an array', [HEX32, HEX16]],
  ['a number', 42],
  ['trace flags that are an object', { traceId: HEX32, spanId: HEX16, traceFlags: { sampled: true } }],
  ['trace flags that are a string', { traceId: HEX32, spanId: HEX16, traceFlags: 'x' }],
  ['trace flags out of range', { traceId: HEX32, spanId: HEX16, traceFlags: 1e9 }],
];

/** A turn handed over mid-tool (the journal keeps its input and its `open` step), ready to recover. */
async function handedOver() {
  const handed = await handedOverTraced();
  handed.request.end();
  return handed;
}

describe('hostile span ids in a durable turn are not linked, and the turn runs', () => {
  test.each(hostile)('%s', async (_what, ids) => {
    const { t, journal, turnId, second: secondProcess } = await handedOver();
    // The journal, as a tampered database returns it: the parent's ids and the first attempt's.
    const input = journal.inputs.get(turnId);
    if (input) input.parentSpan = ids as never;
    const open = journal.steps(turnId).get('open') as { span?: unknown };
    open.span = ids;
    const { b, sessions: second } = secondProcess();
    const ended = (await b.recover(turnId)) as { text: string };
    expect(ended.text).toBe('Charged.');
    expect((await second.messages('c1')).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const recovered = t.exporter.getFinishedSpans().filter((s) => s.name === 'invoke_agent')[1];
    // The recovered span was recorded (not dropped by a sampler reading bad flags), under no hostile parent.
    expect(recovered).toBeDefined();
    expect(recovered?.links).toEqual([]);
    const parent = recovered?.parentSpanContext?.spanId;
    expect(parent === undefined || parent === HEX16).toBe(true);
    expect(JSON.stringify(recovered?.spanContext())).not.toContain('zzzz');
    await second.close();
  });
});

test('a tracer whose spans throw when asked for their ids: the durable turn runs, and its record keeps no span', async () => {
  const t = tracing();
  // The user's tracer: its spans throw on `spanContext()` (a tracer that is shut down, a broken wrapper).
  const throwing: Tracer = Object.create(t.tracer);
  throwing.startSpan = (...args: Parameters<Tracer['startSpan']>) => {
    const span = t.tracer.startSpan(...args);
    span.spanContext = () => {
      throw new Error('tracer down');
    };
    return span;
  };
  const journal = sharedJournal();
  const a = journal.process();
  const sessions = createSessions(
    chargeShop(async () => 'charged'),
    { store: memoryStore(), model: chargeModel, engine: a.engine, telemetry: { tracer: throwing } },
  );
  expect((await sessions.send('c1', 'Charge me')).text).toBe('Charged.');
  expect(journal.steps(a.runs[0]?.turnId as string).get('open')).not.toHaveProperty('span');
  await sessions.close();
});
