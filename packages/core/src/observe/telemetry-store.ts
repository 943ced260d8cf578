/**
 * Traces of a `createSessions` turn around the session's own: its `invoke_agent` span opens before
 * the turn waits for the chat's lease, and the store's work is spans of the turn: the wait for the
 * lease (`wait_lease`), opening the session (`load_session`) and each commit (`commit_session`). So a
 * turn that waited 27 s for another turn's lease shows a 27 s `wait_lease` span, and its duration
 * is what the user waited. The session's turn records on the same span (see `TurnScope.span`).
 */

import type { SessionOptions, TelemetryAttributeValue } from '../types/options.js';
import type { SpanIds } from '../types/telemetry.js';
import {
  end,
  endAdoptedTurn,
  fail,
  type Identity,
  loadOpenTelemetry,
  newTracing,
  type Open,
  SPAN_KIND,
  start,
  telemetryOptions,
} from './tracing.js';

/** The store's work in a turn, as span names (and `skilltree.operation.name`). */
export type StoreStep = 'wait_lease' | 'load_session' | 'commit_session';

const WHAT: Record<StoreStep, string> = {
  wait_lease: 'The wait for the lease',
  load_session: 'Opening the session',
  commit_session: 'The commit',
};

/** A `createSessions` turn's trace. Every method is safe to call when the turn is not traced. */
export interface StoreTurnTrace {
  /** Runs `work` inside a span named `step`; `attributes` describe its result on the span. */
  step<T>(
    step: StoreStep,
    work: () => Promise<T>,
    attributes?: (value: T) => Record<string, TelemetryAttributeValue>,
  ): Promise<T>;
  /** This turn's span, for the session's turn to record on (see `TurnScope.span`); none when untraced. */
  readonly span?: Open;
  /** Ends the turn's span, failed with `error` when the turn failed outside the session's own turn. */
  end(error?: unknown): void;
  /** The ids of this turn's span, as JSON data (a durable turn records them); none when untraced. */
  spanIds?(): SpanIds | undefined;
  /**
   * Links this turn's span to span `ids` (a recovered durable turn to the span of the attempt that
   * died), with `attributes` on the link. Nothing when untraced or the API has no `addLink`.
   */
  link?(ids: SpanIds, attributes?: Record<string, TelemetryAttributeValue>): void;
}

/** The trace of a turn that is not traced. */
const UNTRACED: StoreTurnTrace = {
  step: (_step, work) => work(),
  end: () => {},
  spanIds: () => undefined,
  link: () => {},
};

/**
 * Opens the `invoke_agent` span of a turn on chat `id` of `owner`, under `traceContext` (the
 * server's request span) or the active context. The untraced trace when tracing is off or
 * `@opentelemetry/api` is absent.
 */
export async function startStoreTurn(
  options: SessionOptions,
  id: string,
  owner: string | undefined,
  traceContext: unknown,
): Promise<StoreTurnTrace> {
  const telemetry = telemetryOptions(options.telemetry);
  const api = telemetry ? await loadOpenTelemetry() : null;
  if (!telemetry || !api) return UNTRACED;
  const identity: Identity = owner ? { sessionId: id, owner } : { sessionId: id };
  const tracing = newTracing(api, telemetry, identity);
  const name = tracing.agentName ? `invoke_agent ${tracing.agentName}` : 'invoke_agent';
  const turn = start(tracing, name, SPAN_KIND.internal, { 'gen_ai.operation.name': 'invoke_agent' }, traceContext);
  tracing.muted = !turn.span.isRecording();
  // The context the turn's children start in holds the tracer's own span: its ids are the span's.
  const turnContext = tracing.stack[tracing.stack.length - 1]?.context;
  return {
    async step(step, work, attributes) {
      if (tracing.muted || turn.ended) return work();
      const open = start(tracing, step, SPAN_KIND.internal, { 'skilltree.operation.name': step });
      try {
        const value = await work();
        if (attributes && open.span.isRecording()) open.span.setAttributes(attributes(value));
        return value;
      } catch (error) {
        fail(open, error, WHAT[step]);
        throw error;
      } finally {
        end(open);
      }
    },
    span: turn,
    end(error) {
      if (!turn.ended) endAdoptedTurn(turn, error);
    },
    // Reads the user's span, which may throw (the span skilltree calls is guarded, this one is not).
    spanIds() {
      if (tracing.muted) return undefined;
      try {
        const found = tracing.api.trace.getSpanContext(turnContext);
        return found ? { traceId: found.traceId, spanId: found.spanId, traceFlags: found.traceFlags ?? 1 } : undefined;
      } catch {
        return undefined;
      }
    },
    link(ids, attributes) {
      if (tracing.muted || turn.ended) return;
      turn.span.addLink?.({
        context: { traceId: ids.traceId, spanId: ids.spanId, traceFlags: ids.traceFlags ?? 1, isRemote: true },
        ...(attributes ? { attributes } : {}),
      });
      turn.span.setAttribute('skilltree.turn.recovered', true);
    },
  };
}
