/**
 * Span ids as JSON data, for turns that outlive their process (`createSessions(…, { engine })`).
 * An OpenTelemetry `Context` is an object of the running process: a durable turn's input keeps the
 * ids of its parent span instead, so the recovered turn opens in the same trace, and its `open`
 * step keeps the ids of the first attempt's turn span, so the recovered span links to it.
 */
import type { SpanIds } from '../types/telemetry.js';
import { loadOpenTelemetry } from './tracing.js';

export type { SpanIds } from '../types/telemetry.js';

const HEX = /^[0-9a-f]+$/;

/**
 * Whether `ids` are a valid span's ids (32 and 16 lower-case hex digits, not all zero), with trace
 * flags, when given, a byte: flags of another type would reach the sampler, which reads them as
 * "not sampled" and drops the span.
 */
export function validSpanIds(ids: unknown): ids is SpanIds {
  if (ids === null || typeof ids !== 'object') return false;
  const { traceId, spanId, traceFlags } = ids as Partial<Record<keyof SpanIds, unknown>>;
  return (
    (traceFlags === undefined ||
      (Number.isInteger(traceFlags) && (traceFlags as number) >= 0 && (traceFlags as number) <= 255)) &&
    typeof traceId === 'string' &&
    typeof spanId === 'string' &&
    traceId.length === 32 &&
    spanId.length === 16 &&
    HEX.test(traceId) &&
    HEX.test(spanId) &&
    /[1-9a-f]/.test(traceId) &&
    /[1-9a-f]/.test(spanId)
  );
}

/** Whether `value` is an OpenTelemetry `Context` (what `traceContext` options take). */
export function isTraceContext(value: unknown): boolean {
  return typeof (value as { getValue?: unknown } | null)?.getValue === 'function';
}

/** The ids of the span `context` holds, or undefined (no span, or `@opentelemetry/api` absent). */
export async function spanIdsOf(context: unknown): Promise<SpanIds | undefined> {
  if (!isTraceContext(context)) return undefined;
  const api = await loadOpenTelemetry();
  const found = api?.trace.getSpanContext(context);
  if (!found || !validSpanIds(found)) return undefined;
  return { traceId: found.traceId, spanId: found.spanId, traceFlags: found.traceFlags ?? 1 };
}

/**
 * A `Context` whose span is the remote span `ids` names: a turn started under it continues that
 * trace. Undefined when `@opentelemetry/api` is absent or the ids are not valid.
 */
export async function contextOfSpanIds(ids: unknown): Promise<unknown> {
  if (!validSpanIds(ids)) return undefined;
  const api = await loadOpenTelemetry();
  if (!api) return undefined;
  const { traceId, spanId } = ids;
  return api.trace.setSpanContext(api.ROOT_CONTEXT, {
    traceId,
    spanId,
    traceFlags: ids.traceFlags ?? 1,
    isRemote: true,
  });
}
