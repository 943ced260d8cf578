/**
 * Waiting calls as durable waits (`createSessions(…, { engine })` with an engine that has `wait`
 * and `signal`). A turn that ends waiting (a `needsApproval` call, a client tool) hands its waiting
 * turn back to its caller as always, but its workflow does not end: it waits durably for its
 * answers, and the chat's committed state names the wait (`StoredState.wait`) so that any process
 * finds it. The turn that answers (or supersedes) the calls runs as a workflow of its own, in the
 * process that answers, streaming to its caller; its id is derived from the waiting turn and the
 * answers, so two processes answering the same calls at once start one workflow on an engine that
 * dedups workflows by id. When it ends it signals the wait (a recorded step) with its outcome, and
 * the waiting workflow ends with it.
 */
import type { DurableTurnInput, DurableWait, DurableWaitState, TurnEngine } from '../types/engine.js';
import type { ToolAnswer, Turn } from '../types/session.js';
import { resolveChat } from './chat.js';
import { chatTag, followsOf, ownOutcome, TURN_PREFIX } from './durable-wait-binding.js';
import type { SessionStore, StoredState } from './session-store.js';

export { chatTag, followsOf } from './durable-wait-binding.js';

/** The name of the wait a turn opens for its answers. */
export const ANSWERS_WAIT = 'answers';

/** What a waiting turn's wait receives: the turn that answered it, and how that turn ended. */
export interface WaitOutcome {
  /** The id of the turn that answered (or superseded) the waiting calls. */
  continuation: string;
  /** That turn's reply. */
  text: string;
  /** How many calls that turn ended waiting for (it waits for them in its turn). */
  waiting: number;
}

/** An engine that waits durably (both halves of the wait present). */
export type WaitingEngine = TurnEngine & Required<Pick<TurnEngine, 'wait' | 'signal'>>;

/** Whether `engine` keeps waiting turns as durable waits; without, a waiting turn ends (as without an engine). */
export function waitsDurably(engine: TurnEngine): engine is WaitingEngine {
  return typeof engine.wait === 'function' && typeof engine.signal === 'function';
}

/**
 * The durable wait chat `id` of `owner` is waiting on, as its committed state names it, or null:
 * the waiting turn and the wait to signal. A state naming a wait that is not this chat's (another
 * chat's turn, an id of the wrong shape) gives null: it is never followed.
 */
export async function durableWaitOf(
  store: SessionStore,
  id: string,
  owner: string | undefined,
): Promise<DurableWaitState | null> {
  const chat = await resolveChat(store, id, owner);
  return followsOf(chat.record?.state.wait, await chatTag(chat.key));
}

/**
 * The id of a turn of the chat tagged `tag` (see {@link chatTag}) sent with `input`: one that
 * answers the calls of waiting turn `follows` gets an id derived from that turn and the answers
 * (the same answers from two processes start one workflow on an engine that dedups by id); any
 * other turn a new id. Every id begins with the chat's tag, so two chats never share a turn id.
 *
 * The derived id is a SHA-256 of the waiting turn's id and the sorted answers, so it has the same
 * length however many approval rounds came before (each round's waiting turn is the last answer),
 * and two different answers (approve or deny, two client results, user text in either) cannot be
 * made to share one id: an engine that dedups by id would hand the second the first's outcome.
 */
export async function turnIdFor(
  follows: DurableWaitState | null,
  input: string | readonly ToolAnswer[],
  tag: string,
): Promise<string> {
  if (follows && typeof input !== 'string') {
    const answers = [...input].map((a) => JSON.stringify(a)).sort();
    return `${TURN_PREFIX}${tag}-answers-${await sha256Hex(JSON.stringify([follows.turn, ...answers]))}`;
  }
  return `${TURN_PREFIX}${tag}-${crypto.randomUUID()}`;
}

/** The SHA-256 of `text` in hex (Web Crypto: core runs wherever `crypto.subtle` does, as `chatTag`). */
async function sha256Hex(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * What turn `turnId` adds to each commit's state: the waiting turn it answers (`answered`), and its
 * own wait while calls wait for an answer (`wait`), so that any process finds both.
 */
export function waitState(
  turnId: string,
  follows: DurableTurnInput['follows'],
  wait: DurableWait | null,
): (stored: StoredState) => void {
  return (stored) => {
    if (follows) stored.answered = follows.turn;
    if (wait && stored.waiting?.some((w) => w.status === 'waiting')) stored.wait = { turn: turnId, wait: wait.id };
  };
}

/**
 * Thrown by an engine's `signal` when the wait can never take a value: no such wait (its workflow
 * was never there, or retention deleted it), or an id the engine refuses. Sending again would fail
 * the same way for ever, so the answer records that the signal could not be delivered, and ends.
 */
export class WaitUndeliverableError extends Error {
  /** The wait the signal was for (cut to 80 characters). */
  readonly waitId: string;
  constructor(waitId: unknown, reason: string) {
    const shown = typeof waitId === 'string' ? waitId.slice(0, 80) : `(${typeof waitId})`;
    super(`No signal can reach wait ${JSON.stringify(shown)}: ${reason}. The answer ends without signalling it.`);
    this.name = 'WaitUndeliverableError';
    this.waitId = shown;
  }
}

/** Whether `error` is a {@link WaitUndeliverableError}, from this copy of core or another (an engine's). */
function undeliverable(error: unknown): error is WaitUndeliverableError {
  return error instanceof WaitUndeliverableError || (error instanceof Error && error.name === 'WaitUndeliverableError');
}

/** The longest wait, in ms, between two sends of a signal the engine failed to send (see {@link signalWithRetries}). */
export const SIGNAL_BACKOFF_MAX = 5_000;

/**
 * Signals waiting turn `follows` with `outcome`, trying again while the engine fails to send
 * (Restate's ingress refused or out of reach, a DBOS `send` that failed), after 50, 100, 200 ms…
 * and then every {@link SIGNAL_BACKOFF_MAX} ms: sending twice is harmless, a wait keeps the first
 * value it gets. It resolves only once a signal went out (or the engine said no signal ever can:
 * {@link WaitUndeliverableError}), and never throws: a step around it
 * records neither a failed signal nor a failure (an engine replays a recorded failure, and the
 * waiting workflow would then never end). Until then the answer's workflow is pending where the
 * engine shows it; if its process dies meanwhile, another process recovers the answer (the chat
 * names the turn it answered) and sends the signal from there.
 */
async function signalWithRetries(
  engine: WaitingEngine,
  follows: DurableWaitState,
  outcome: WaitOutcome,
  retrying: () => void,
) {
  for (let attempt = 1; ; attempt++) {
    try {
      await engine.signal(follows.wait, outcome);
      return null;
    } catch (error) {
      // A wait that can never take it: recorded as such (replayed, the answer does not try again).
      if (undeliverable(error)) return { undeliverable: error.message };
      if (attempt === 1) retrying();
      await new Promise((resolve) => setTimeout(resolve, Math.min(25 * 2 ** attempt, SIGNAL_BACKOFF_MAX)).unref?.());
    }
  }
}

/**
 * Signals waiting turn `follows` that a turn answered it, with `outcome`: once, as a recorded step
 * (sent again inside while the engine fails to send, `retrying` called at the first failure). An
 * answer that failed after it began signals too: its commits took the waiting calls from the chat
 * (`answered`), so no later answer would ever signal the waiting turn, and its workflow would wait
 * (and look abandoned) for ever.
 */
export async function signalAnswered(
  engine: WaitingEngine,
  follows: DurableWaitState,
  outcome: WaitOutcome,
  retrying: () => void = () => {},
): Promise<void> {
  await engine.step(`signal-${follows.turn}`, () => signalWithRetries(engine, follows, outcome, retrying));
}

/**
 * Whether the chat's committed state shows waiting turn `waiting` answered and waiting no more: an
 * answer's commits took its calls (an answer refused before it wrote, e.g. naming a call the chat
 * does not wait for, leaves them waiting for another answer to signal). A store that cannot say
 * counts as no: the turn stays as it was, and the recovery watch looks at it again.
 */
export async function tookTheCalls(store: SessionStore, key: string, waiting: string): Promise<boolean> {
  const record = await store.record(key).catch(() => null);
  return record?.state.answered === waiting && record.state.wait?.turn !== waiting;
}

/**
 * The end of a durable turn's body, once its caller has the turn: a turn that answered a waiting
 * turn signals its wait (once: a recorded step, sent again inside while the engine fails to send,
 * `retrying` called at the first failure); a turn that ends waiting waits for its own answers
 * and ends with what answered them, when a turn of its own chat (tagged `tag`) did, else null.
 * Returns the workflow's result.
 */
export async function endOfTurn(
  engine: WaitingEngine,
  turnId: string,
  follows: DurableTurnInput['follows'],
  wait: DurableWait | null,
  turn: Turn,
  tag: string,
  retrying: () => void = () => {},
): Promise<unknown> {
  if (follows) {
    await signalAnswered(
      engine,
      follows,
      { continuation: turnId, text: turn.text, waiting: turn.waiting?.length ?? 0 },
      retrying,
    );
  }
  if (!wait || !turn.waiting?.length) return turn;
  return ownOutcome(await wait.received(), tag);
}
