/**
 * The setup the durable trace tests share: a turn sent under a `request` span, handed over mid-tool
 * when its process closes (the in-memory journal keeps its input and its `open` step), and a second
 * process on the same journal and store that recovers it. Used by `durable-trace-link.test.tsx` and
 * `durable-trace-hostile.test.tsx`.
 */
import { context, trace } from '@opentelemetry/api';
import { Agent, createSessions, type Model, memoryStore, Tool } from '../src/index.js';
import { sharedJournal } from './shared-journal.js';
import { tracing } from './tracing.js';

/** A model that calls `charge` once, then answers `Charged.` after the tool's result. */
export const chargeModel: Model = {
  async generate(req) {
    if (req.messages.at(-1)?.role === 'tool') return { text: 'Charged.', toolCalls: [] };
    return { text: '', toolCalls: [{ id: 'pay-1', name: 'charge', input: {} }] };
  },
};

/** An agent with one tool, `charge`, that runs `run`. */
export const chargeShop = (run: () => Promise<string>) => (
  <Agent>
    <Tool name="charge" description="Charges the card" run={run} />
  </Agent>
);

/**
 * Sends `Charge me` on conversation `c1` under a `request` span (left open: the caller ends it),
 * and closes the process (a deploy) while the tool runs: the turn is handed over, ready to recover.
 */
export async function handedOverTraced() {
  const t = tracing();
  const journal = sharedJournal();
  const store = memoryStore();
  let started = () => {};
  const inTool = new Promise<void>((resolve) => (started = resolve));
  const a = journal.process();
  const first = createSessions(
    chargeShop(() => {
      started();
      return new Promise<string>(() => {});
    }),
    { store, model: chargeModel, engine: a.engine, telemetry: { tracer: t.tracer } },
  );
  const request = t.tracer.startSpan('request');
  const sending = first
    .send('c1', 'Charge me', { traceContext: trace.setSpan(context.active(), request) })
    .catch(() => {});
  await inTool;
  await first.close({ timeout: 0 });
  await sending;
  const [{ turnId }] = a.runs;
  /** A second process on the same journal and store, whose `charge` answers `charged`. */
  const second = () => {
    const b = journal.process();
    const sessions = createSessions(
      chargeShop(async () => 'charged'),
      { store, model: chargeModel, engine: b.engine, telemetry: { tracer: t.tracer } },
    );
    return { b, sessions };
  };
  return { t, journal, store, turnId, request, second };
}
