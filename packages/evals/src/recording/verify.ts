/**
 * A recording is checked whole before a replay answers anything: a replayed answer makes the
 * agent run its real tools, so a recording edited after it was made (a call's input changed, a
 * call added) must be refused before the first answer, never noticed one request later. Two
 * checks: the file's integrity digest (written with it: any edit shows), and, with or without
 * one, that each call an answer makes is the call the next recorded request carries (an answer
 * edited alone shows even in a recording without a digest).
 */
import { createHash } from 'node:crypto';

/** JSON with the keys of every object sorted: one text for one value, however it was formatted. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The integrity digest of a recording's JSON (its `integrity` field left out): `sha256-<hex>`. */
export function recordingDigest(recording: object): string {
  const { integrity: _left, ...rest } = recording as Record<string, unknown>;
  return `sha256-${createHash('sha256').update(canonical(rest)).digest('hex')}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

/** The calls an exchange's answer makes (from its response, or its streamed parts), as name and input. */
function answeredCalls(exchange: Record<string, unknown>): { name: unknown; input: string }[] {
  const response = exchange.response;
  if (isObject(response)) {
    const calls = Array.isArray(response.toolCalls) ? response.toolCalls : [];
    return calls.filter(isObject).map((c) => ({ name: c.name, input: canonical(c.input ?? {}) }));
  }
  const parts = Array.isArray(exchange.stream) ? exchange.stream : [];
  return parts
    .filter((p): p is Record<string, unknown> => isObject(p) && p.type === 'tool-call')
    .map((p) => ({ name: p.name, input: canonical(p.input ?? {}) }));
}

/** Every call (name and input) of the assistant messages of a recorded request. */
function requestedCalls(exchange: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  const request = isObject(exchange.request) ? exchange.request : {};
  const messages = Array.isArray(request.messages) ? request.messages : [];
  for (const m of messages) {
    if (!isObject(m) || m.role !== 'assistant' || !Array.isArray(m.toolCalls)) continue;
    for (const c of m.toolCalls) if (isObject(c)) out.add(`${String(c.name)}\u0000${canonical(c.input ?? {})}`);
  }
  return out;
}

/**
 * Throws, naming `source` and what is wrong, unless the recording (its parsed JSON, as read) is
 * whole: its digest matches when it has one, and each answer's calls are in the next request.
 */
export function verifyRecording(raw: Record<string, unknown>, source: string): void {
  const refuse = (what: string) =>
    new Error(
      `${source} was changed after it was recorded (${what}); nothing was replayed and no tool ran. Record it again.`,
    );
  if (raw.integrity !== undefined && raw.integrity !== recordingDigest(raw)) {
    throw refuse('its integrity digest does not match its content');
  }
  const exchanges = Array.isArray(raw.exchanges) ? raw.exchanges.filter(isObject) : [];
  for (let i = 0; i + 1 < exchanges.length; i++) {
    // A failed call's partial answer is not acted on.
    if (exchanges[i].error !== undefined) continue;
    const next = requestedCalls(exchanges[i + 1]);
    for (const call of answeredCalls(exchanges[i])) {
      if (typeof call.name !== 'string') continue;
      if (!next.has(`${call.name}\u0000${call.input}`)) {
        throw refuse(
          `exchanges[${i}] answers with a call of "${call.name}" that the next recorded request, exchanges[${i + 1}], does not carry`,
        );
      }
    }
  }
}
