/**
 * The Restate ingress as `restateEngine` calls it over HTTP: starting a turn (its id the
 * idempotency key), resolving a wait's awakeable from any process, and following an invocation to
 * its end.
 */
import type { DurableTurnInput } from '@skilltree/core/provider';
import { WaitUndeliverableError } from '@skilltree/core/provider';

/** What the turn handler is called with. */
export interface TurnRequest {
  turnId: string;
  input: DurableTurnInput;
}

/**
 * Starts turn `request` on `service` through the ingress. The turn id is the idempotency key, so a
 * repeated send starts nothing twice. An ingress that has not learnt a just-registered service yet
 * (it answers 404) is asked again, a few times.
 */
export async function send(ingress: string, service: string, request: TurnRequest): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(new URL(`/${service}/run/send`, ingress), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': request.turnId },
      body: JSON.stringify(request),
    });
    if (response.status !== 404 || attempt >= 20) return response;
    await response.arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Resolves awakeable `id` with `value` through the ingress (from any process). An awakeable that
 * was resolved already keeps its first value.
 */
export async function resolveAwakeable(ingress: string, id: string, value: unknown): Promise<void> {
  const url = new URL(`/restate/awakeables/${encodeURIComponent(id)}/resolve`, ingress);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(value),
  });
  const text = await response.text();
  if (!response.ok) {
    const why = `the Restate ingress (${ingress}) refused to resolve it: ${response.status} ${text.slice(0, 200)}`;
    // An id the server cannot parse, or an awakeable it does not know: no send will ever find it.
    if (UNDELIVERABLE.has(response.status)) throw new WaitUndeliverableError(id, why);
    throw new Error(`restateEngine: ${why} (wait ${id})`);
  }
}

/** Statuses with which the ingress says a wait can never be resolved (others, 5xx and 429 among them, pass). */
const UNDELIVERABLE = new Set([400, 404, 410]);

/** Resolves once the server has recorded invocation `id`'s end (whatever it was). */
export async function attach(ingress: string, id: string, signal: AbortSignal): Promise<void> {
  try {
    const url = new URL(`/restate/invocation/${encodeURIComponent(id)}/attach`, ingress);
    const response = await fetch(url, { signal });
    await response.arrayBuffer();
  } catch (error) {
    // Closed while the server still held the turn: its caller hears how it ended here, all the same.
    if (!signal.aborted) throw error;
  }
}

/** The error of a caller whose turn the server ran in another process (see the engine's `run`). */
export function ranElsewhere(turnId: string, chatId: string): Error {
  return new Error(
    `restateEngine: turn ${turnId} ran in another process: the Restate server moved this process's deployment there ` +
      `(its chat leases had lapsed, an overloaded machine). The turn ended there; read its reply in chat "${chatId}" ` +
      'with sessions.messages or GET /chat/:id/stream. Give leases a TTL above the longest stall (leaseTtl).',
  );
}
