/**
 * Turns of `createSessions(…, { engine })` as durable workflows. The engine runs the turn's body
 * (here, the first time; in any process, on recovery); the body is the chat's turn as always
 * (lease, load, commits), with three things recorded as steps: the session it opened (the chat's
 * snapshot at turn start), each model call and tool run (see `turn/journal.ts`), and each charge of
 * the owner's spend. A recovered turn re-mounts the snapshot, replays the recorded steps through the
 * tree, and writes nothing until it has caught up with what the store already has.
 */
import type { StoreTurnTrace } from '../observe/telemetry-store.js';
import { contextOfSpanIds, isTraceContext, type SpanIds, spanIdsOf, validSpanIds } from '../observe/trace-links.js';
import { TurnSupersededError } from '../turn/journal.js';
import { journaledLedger } from '../turn/spend-steps.js';
import type { DurableTurnInput, DurableWait, TurnEngine } from '../types/engine.js';
import type { SendOptions } from '../types/options.js';
import type { SessionEvent, SessionSnapshot, ToolAnswer, Turn } from '../types/session.js';
import { type ResolvedChat, resolveChat } from './chat.js';
import { chatSession } from './chat-session.js';
import { chatTurn, type DurableTurnHooks, fencedError, type Opened, type TurnContext } from './chat-turn.js';
import { type Handover, handoverEngine, TurnHandedOverError } from './durable-handover.js';
import { leaseHolds } from './durable-holds.js';
import { lookAt } from './durable-look.js';
import { movedOnSinceSent, replayOnly, stillRunsOn } from './durable-superseded.js';
import { outageError, storeOutage, takenOver } from './durable-taken.js';
import {
  ANSWERS_WAIT,
  chatTag,
  endOfTurn,
  followsOf,
  signalAnswered,
  tookTheCalls,
  turnIdFor,
  type WaitingEngine,
  waitState,
  waitsDurably,
} from './durable-wait.js';

/** The session a turn opened, as its `open` step records it. */
interface OpenRecord {
  epoch: string;
  /** Messages the store had when the turn began. */
  committed: number;
  snapshot: SessionSnapshot;
  /** The ids of the first attempt's turn span (when traced): a recovered attempt's span links to it. */
  span?: SpanIds;
}

/** How a turn ended for its caller; `pending`: its run is left pending here (another process has the turn). */
interface Ended {
  turn?: Turn;
  error?: unknown;
  pending?: boolean;
}

/** A running turn's way back to the caller in this process: its events, its end, its abort signal. */
interface Sink {
  signal: AbortSignal;
  /** The caller's trace context, as given (the input keeps only its span's ids). */
  traceContext?: unknown;
  push(event: SessionEvent): void;
  end(outcome: Ended): void;
  /** Set once a run of this process took the sink: the engine ran the turn here. */
  taken?: boolean;
  /** How the turn ended for its caller, once it did. */
  ended?: Ended;
  /** Callers in this process that started the same turn id meanwhile: they hear what this one hears. */
  followers?: Set<Sink>;
  /**
   * The run's end no longer concerns the caller: all that is left is the signal to the turn it
   * answered, which the engine failed to send and sends again (a process that dies meanwhile leaves
   * an answer another process recovers, and that run writes nothing), so the caller stops waiting.
   */
  release(): void;
}

/** The durable turns of one `createSessions`: `turn` runs one, and the engine recovers the rest. */
export interface DurableTurns {
  turn(
    chat: { id: string; owner: string | undefined },
    input: string | readonly ToolAnswer[],
    signal: AbortSignal,
    extra: { traceContext?: unknown; budget?: DurableTurnInput['budget']; files?: SendOptions['files'] },
  ): AsyncGenerator<SessionEvent, Turn>;
  /**
   * Hands the turns running in this process over (`sessions.close()`): nothing more is recorded
   * here, and each turn that had begun is left pending for another process to recover.
   */
  handOver(): void;
}

/**
 * The hooks that make a chat's turn durable on `engine` (`state`: what the turn adds to its commits'
 * state). `recovered`: no caller of this process started the turn (see durable-superseded.ts).
 */
function hooksFor(
  ctx: TurnContext,
  engine: TurnEngine,
  input: DurableTurnInput,
  recovered: boolean,
  state?: DurableTurnHooks['state'],
): DurableTurnHooks {
  // The engine the turn's steps record on: a recovered turn whose chat moved on may only replay.
  let steps = engine;
  return {
    ...(state ? { state } : {}),
    async open(chat: ResolvedChat, live, trace?: StoreTurnTrace) {
      let opened: Opened | undefined;
      const record = await engine.step<OpenRecord>('open', async () => {
        if (recovered && movedOnSinceSent(input, chat)) throw new TurnSupersededError(chat.id, 'open');
        opened = await live();
        const { entry } = opened;
        const span = trace?.spanIds?.();
        return {
          epoch: entry.epoch,
          committed: entry.committed,
          snapshot: entry.session.session.snapshot(),
          ...(span ? { span } : {}),
        };
      });
      if (!opened) {
        const reopened = await reopen(ctx, chat, record);
        opened = reopened.opened;
        if (!reopened.live) steps = replayOnly(engine, chat.id);
        // The recovered attempt's span links to the first attempt's (whose process died with it).
        if (validSpanIds(record.span)) trace?.link?.(record.span, { 'skilltree.link.type': 'recovered_from' });
      }
      opened.entry.session.bind({ engine: steps, chatId: chat.id });
      return opened;
    },
    ledger: (spend) => journaledLedger(steps, spend),
  };
}

/**
 * A recovered turn's session: the chat's snapshot at turn start, re-mounted, at the store's version
 * now, replaying up to the store's length before it writes. A chat deleted (or started again) since
 * is not this turn's any more: it is fenced. `live`: the chat still shows the turn running, so it
 * may go on from its last recorded step (else it may only replay: see durable-superseded.ts).
 */
async function reopen(
  ctx: TurnContext,
  chat: ResolvedChat,
  recorded: OpenRecord,
): Promise<{ opened: Opened; live: boolean }> {
  const record = await ctx.store.record(chat.key);
  if (!record || String(record.epoch) !== recorded.epoch) throw fencedError(chat.id);
  const { id, owner } = chat;
  const session = chatSession(
    ctx.element(id, owner),
    ctx.optionsFor(id, owner),
    { id, owner },
    recorded.epoch,
    recorded.snapshot,
  );
  const opened: Opened = {
    entry: {
      session,
      epoch: recorded.epoch,
      version: record.version,
      committed: recorded.committed,
      // A later turn runs on the chat (this is a waiting turn, recovered after its answer): replay, never write.
      replayTo: laterTurn(record.state.turn, session.length())
        ? Number.POSITIVE_INFINITY
        : Math.max(record.length, recorded.committed),
    },
    source: 'store',
  };
  return { opened, live: stillRunsOn(record, session.length()) };
}

/** What a turn left pending in this process waits on: it never ends here (another process ends it). */
function pendingForever(): Promise<never> {
  return new Promise<never>(() => {});
}

/** Whether the chat's running turn (as its commits say) began after `length` messages: it is another, later turn. */
function laterTurn(turn: { from: number } | undefined, length: number): boolean {
  return turn !== undefined && turn.from > length;
}

/**
 * Registers the turn runner with `engine` and returns the way to run turns on it. Turns of this
 * process stream their events to their caller; a turn recovered here runs with no caller, writing
 * to the store as any turn does.
 */
export function durableTurns(ctx: TurnContext, engine: TurnEngine): DurableTurns {
  // Every step goes through the handover's engine: after `sessions.close()` handed over, none records.
  const handover: Handover = handoverEngine(engine);
  const sinks = new Map<string, Sink>();
  const holds = leaseHolds(ctx.store, ctx.policy.leaseTtl);
  engine.register({
    async run(turnId, input) {
      const sink = sinks.get(turnId);
      if (sink) sink.taken = true;
      // A turn without a caller here was recovered from another process: a closing process never
      // fails it (an engine never runs a failed workflow again), it leaves it for another process.
      if (handover.active && !sink) return pendingForever();
      // Whether this attempt's turn had begun (the store says it runs): only such a turn is handed over.
      let begun: () => boolean = () => false;
      // The chat and the session this attempt opened (its epoch, and its version as commits move it).
      let chat: ResolvedChat | undefined;
      let session: Opened['entry'] | undefined;
      // The waiting turn this one answers, on an engine that waits: signalled however this turn ends.
      let answering: { waits: WaitingEngine; follows: NonNullable<DurableTurnInput['follows']> } | undefined;
      try {
        chat = await resolveChat(ctx.store, input.id, input.owner ?? undefined);
        const self: { it?: AsyncGenerator<SessionEvent, Turn> } = {};
        // In the process that started the turn, the caller's own context; elsewhere its span's ids.
        const traceContext =
          sink?.traceContext ?? (input.parentSpan ? await contextOfSpanIds(input.parentSpan) : input.traceContext);
        const extra = {
          ...(input.budget ? { budget: input.budget } : {}),
          ...(input.files ? { files: input.files } : {}),
          ...(traceContext !== undefined ? { traceContext } : {}),
        };
        // A turn that may end waiting opens its wait first, so its commits can name it (see durable-wait.ts).
        const waits = waitsDurably(engine) ? engine : null;
        const wait: DurableWait | null = waits ? await waits.wait(ANSWERS_WAIT) : null;
        // The recorded input is hostile too: a wait it names is followed only when it is this chat's.
        const tag = await chatTag(chat.key);
        const follows = followsOf(input.follows, tag) ?? undefined;
        if (waits && follows) answering = { waits, follows };
        const hooks = hooksFor(
          ctx,
          handover.engine,
          input,
          !sink,
          waits ? waitState(turnId, follows, wait) : undefined,
        );
        const turnCtx: TurnContext = {
          ...ctx,
          durable: {
            ...hooks,
            async open(resolved, live, trace) {
              const opened = await hooks.open(resolved, live, trace);
              const { entry } = opened;
              session = entry;
              const recovered = entry.replayTo !== undefined;
              const version = entry.version;
              begun = () => recovered || entry.version > version;
              return opened;
            },
            heldLease: (key) => holds.adopt(turnId, key),
          },
        };
        const it = chatTurn(turnCtx, chat, input.input, sink?.signal ?? new AbortController().signal, self, extra);
        self.it = it;
        for (;;) {
          const next = await it.next();
          if (next.done) {
            sink?.end({ turn: next.value });
            return waits
              ? await endOfTurn(waits, turnId, follows, wait, next.value, tag, () => sink?.release())
              : next.value;
          }
          sink?.push(next.value);
        }
      } catch (error) {
        if (handover.active) {
          sink?.end({ error: new TurnHandedOverError(engine.name, begun()) });
          // Left pending, as a crash leaves it: the engine recovers it in another process.
          if (begun() || !sink) return pendingForever();
        }
        // Fenced because another process took the chat's lease (this one was starved past its TTL,
        // and the engine recovered the turn there): the turn is that process's now. As a handover,
        // it is left pending here; a failure recorded first would end it for every process.
        if (chat && session && begun() && (await takenOver(ctx, chat, session, error))) {
          sink?.end({ error, pending: true });
          return pendingForever();
        }
        // A store outage (durable-taken.ts): left pending as a crash leaves it, for another process.
        if (chat && begun() && (await storeOutage(ctx, chat))) {
          sink?.end({ error: outageError(chat.id, error), pending: true });
          return pendingForever();
        }
        sink?.end({ error });
        // An answer that failed (the model failed, or its caller stopped it) once its commits had
        // taken the waiting calls still ends the turn it answered (see signalAnswered). So does an
        // answer that began and was superseded on recovery: its first commit took the calls, and
        // the later turn that moved the chat on does not name them any more.
        if (
          answering &&
          ((error instanceof TurnSupersededError && begun()) ||
            (chat && (await tookTheCalls(ctx.store, chat.key, answering.follows.turn))))
        ) {
          await signalAnswered(answering.waits, answering.follows, { continuation: turnId, text: '', waiting: 0 });
        }
        throw error;
      }
    },
    look: (input, turnId, seen) => lookAt(ctx.store, input, turnId, seen),
    abandoned: async (input, turnId, seen) => (await lookAt(ctx.store, input, turnId, seen)) === 'abandoned',
    hold: (input, turnId) => holds.hold(input, turnId),
  });
  /**
   * Runs turn `turnId` on the engine and streams its events here until it ends for its caller:
   * its outcome, and whether a run of this process took it (`ranHere`; false when the engine handed
   * back the outcome of a run of that id elsewhere or earlier).
   */
  async function* follow(
    turnId: string,
    body: DurableTurnInput,
    signal: AbortSignal,
    traceContext: unknown,
  ): AsyncGenerator<SessionEvent, { turn?: Turn; error?: unknown; ranHere: boolean }> {
    const queue: SessionEvent[] = [];
    let wake: (() => void) | null = null;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const sink: Sink = {
      release,
      signal,
      ...(traceContext !== undefined ? { traceContext } : {}),
      push(event) {
        queue.push(event);
        wake?.();
        for (const follower of sink.followers ?? []) follower.push(event);
      },
      end(o) {
        sink.ended ??= o;
        wake?.();
        for (const follower of sink.followers ?? []) follower.end(o);
      },
    };
    // The same id started here already (the same answers sent twice at once): an engine that dedups
    // by id runs it once, so this caller follows that turn's caller, and hears how it ends for it.
    const leader = sinks.get(turnId);
    let ran: Promise<void> | null = null;
    if (leader) {
      leader.followers ??= new Set();
      leader.followers.add(sink);
      if (leader.ended) sink.end(leader.ended);
    } else {
      sinks.set(turnId, sink);
      // The engine's own failure (it could not start the workflow) ends the turn too.
      ran = engine.run(turnId, body).then(
        (turn) => sink.end({ turn: turn as Turn }),
        (error: unknown) => sink.end({ error }),
      );
    }
    try {
      for (;;) {
        while (queue.length > 0) yield queue.shift() as SessionEvent;
        if (sink.ended) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
      const ended = sink.ended as Ended;
      // A turn handed over stays pending in the engine: its workflow does not end here. Nor does
      // one that ended waiting (its workflow waits on for the answers), or one another process took
      // over (see durable-taken.ts).
      const handedOver = ended.error instanceof TurnHandedOverError && ended.error.handedOver;
      const waitsOn = Boolean(ended.turn?.waiting?.length) && waitsDurably(engine);
      if (ran && !handedOver && !waitsOn && !ended.pending) await Promise.race([ran, released]);
      return { ...ended, ranHere: (leader ?? sink).taken === true };
    } finally {
      leader?.followers?.delete(sink);
      if (sinks.get(turnId) === sink) sinks.delete(turnId);
    }
  }

  return {
    async *turn(chat, input, signal, extra) {
      // The waiting turn this one answers (or supersedes), as the chat's committed state names it.
      // Only a wait of this chat is followed (see durable-wait-binding.ts): a state naming another's is ignored.
      const resolved = await resolveChat(ctx.store, chat.id, chat.owner);
      const tag = await chatTag(resolved.key);
      const follows = waitsDurably(engine) ? followsOf(resolved.record?.state.wait, tag) : null;
      const turnId = await turnIdFor(follows, input, tag);
      const body: DurableTurnInput = {
        id: chat.id,
        owner: chat.owner ?? null,
        input: typeof input === 'string' ? input : [...input],
        ...(extra.budget ? { budget: extra.budget } : {}),
        ...(extra.files ? { files: [...extra.files] as DurableTurnInput['files'] } : {}),
        ...(follows ? { follows } : {}),
        chatVersion: resolved.record?.version ?? 0,
      };
      // An OpenTelemetry Context lives in this process only: the input keeps its span's ids.
      const parentSpan = await spanIdsOf(extra.traceContext);
      if (parentSpan) body.parentSpan = parentSpan;
      else if (extra.traceContext !== undefined && !isTraceContext(extra.traceContext)) {
        body.traceContext = extra.traceContext;
      }
      const ended = yield* follow(turnId, body, signal, extra.traceContext);
      // An answer's id is derived (see durable-wait.ts), and an engine hands every later start of an
      // id the outcome of the run that had it, a failure too. A failure no run here produced is an
      // earlier attempt's (one that failed before it began, or another process's that failed): the
      // answer is sent again under an id of its own, and the chat's state decides what it may do.
      const retry = follows && typeof input !== 'string' && ended.error !== undefined && !ended.ranHere;
      const outcome = retry
        ? yield* follow(`${turnId}/retry-${crypto.randomUUID()}`, body, signal, extra.traceContext)
        : ended;
      if (outcome.error !== undefined || !outcome.turn) throw outcome.error;
      return outcome.turn;
    },
    handOver: () => handover.begin(),
  };
}
