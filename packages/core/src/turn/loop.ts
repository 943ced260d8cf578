/**
 * The turn: one async generator that sends the user's message and loops model → tools → model
 * until the model replies without tool calls. `send` runs it to the end, `stream` hands out its
 * events; both are the same code. Leaving the generator early aborts the turn, and whatever way it
 * ends, every tool call in the transcript has its result.
 */

import { messageFileParts } from '../files/files.js';
import { resolveFileLimits } from '../files/limits.js';
import { budgetHook, type TurnBudgetScope } from '../observe/budget.js';
import { tracingHook } from '../observe/telemetry.js';
import type { Open } from '../observe/tracing.js';
import { composeHooks, type TurnHooks } from '../observe/turn-hooks.js';
import { textPart } from '../parts/message-parts.js';
import { sanitizeText } from '../parts/text.js';
import { buildRequest, recordSent } from '../request/request.js';
import { config } from '../state/config.js';
import { drainTurn, drainWhile, emit, hasEvents, warn } from '../state/events.js';
import { shownWaiting, transcriptOf } from '../state/reads.js';
import { pushMessage, stageUserMessage } from '../state/record.js';
import { render } from '../state/render.js';
import { budgetTurnUsage, runFinished, setTurnUsage, startTurnUsage, turnUsage } from '../state/runs.js';
import type { SessionState } from '../state/state.js';
import { settle, sync } from '../state/sync.js';
import { repairCalls, transcriptLength } from '../transcript/transcript.js';
import type { AssistantMessage, ToolCall, ToolErrorKind } from '../types/messages.js';
import type { Model } from '../types/model.js';
import type { SendOptions } from '../types/options.js';
import type { ModelRequest } from '../types/request.js';
import type { SessionEvent, ToolAnswer, Turn, WaitingCall } from '../types/session.js';
import { executeCall, recordResult } from './calls.js';
import { consumed, estimatedResponse } from './charge.js';
import { journalHook } from './journal.js';
import { abortError, addUsage, type CallProgress, callModel, callProgress, responseContent } from './model-call.js';
import { endFinished } from './run-end.js';
import { takeRunWaits } from './run-waits.js';
import { cutResult, resultText } from './tool-call.js';
import { announceWaiting, answerRuns, checkAnswers, stageSupersede, waitFor } from './waiting.js';

/** The model's tool calls as the transcript keeps them (see `repairCalls`); a dropped one is a warning. */
function withIds(state: SessionState, calls: readonly ToolCall[]): ToolCall[] {
  const repaired = repairCalls(transcriptOf(state), calls);
  for (const { index, reason } of repaired.dropped) {
    warn(state, `The model sent a tool call that was dropped (toolCalls[${index}]: ${reason}).`, 'skilltree');
  }
  return repaired.calls;
}

/**
 * What a turn is given beside its input by the layer that runs it (`createSessions`): its own budget
 * and the owner's spend, and the turn span opened before the lease.
 */
export interface TurnScope extends TurnBudgetScope {
  span?: Open;
}

/**
 * Runs one turn. The caller owns `signal`; aborting it (or returning from the generator) ends the
 * turn. Budgets and traces watch it through its {@link TurnHooks}, made for this turn. With
 * `handOut` false (`send`, which reads only the result) the generator yields no events: handing
 * each one out through the async generators cost a step more than its own work.
 */
export async function* runTurn(
  state: SessionState,
  model: Model,
  input: string | readonly ToolAnswer[],
  signal: AbortSignal,
  options?: SendOptions,
  scope: TurnScope = {},
  handOut = true,
): AsyncGenerator<SessionEvent, Turn, undefined> {
  if (state.turn.busy) throw new Error('A turn is already running in this session: await the previous send() first.');
  const answers = Array.isArray(input) ? (input as readonly ToolAnswer[]) : null;
  if (answers) checkAnswers(state, answers);
  else if (typeof input !== 'string') {
    throw new Error(`send() needs the user's message as a string (got ${typeof input}).`);
  }
  const text = answers ? '' : (input as string);
  state.turn.busy = true;
  // The turn's usage starts at nothing; the subagent runs it spawns add theirs as they go (and read its scope).
  startTurnUsage(state, scope);
  // A turn run by `send` hands no events out (listeners still get every one): nothing is queued.
  state.turn.events = handOut ? [] : null;
  const first = transcriptLength(transcriptOf(state));
  let unanswered: ToolCall[] = [];
  let why = 'Not run: the turn was aborted.';
  let whyKind: ToolErrorKind = 'interrupted';
  const outcome: { turn?: Turn; error?: unknown } = {};
  const concerns = [
    tracingHook(state, model, answers ? describeAnswers(answers) : text, options, scope.span),
    budgetHook(state, model, scope),
    // On a durable engine, each model call is a recorded step (innermost: traces and budgets see it).
    journalHook(state),
  ].filter((hook) => hook !== null);
  const hooks = composeHooks(concerns);
  const usageRead = concerns.some((hook) => hook.afterModelCall !== undefined);
  // Under a budget, a call whose provider reports no usage counts an estimate of what it used (its
  // input, and its text, tool calls and reasoning as output): a budget cannot be walked around by
  // a provider that stays silent. Without one, usage stays what the provider said.
  const charged = usageRead || (scope.budget ?? state.options.budget) !== undefined;
  const watch = (call: ToolCall) => hooks.toolCall(call);
  /** The model call in flight: when the turn ends without its response, what it consumed is charged. */
  let inFlight: { request: ModelRequest; progress: CallProgress } | null = null;
  try {
    // A budget used up already refuses the turn before anything is recorded.
    await hooks.start();
    // A crashed agent gets one more render from its last element before anything is sent.
    if (state.crashed) {
      render(state);
      sync(state);
    }
    // Work scheduled since the last message (an effect's update, a timer) is recorded with this one,
    // and a loaded skill still waiting for data (restored, or re-mounted) gets it before the model asks.
    await settle(state, { loaded: true });
    let request: ModelRequest | null = null;
    if (answers) {
      // Answers go on with the turn that ended waiting: approved tools run (each marked running and
      // committed first, so it runs at most once), denials and client results are recorded.
      yield* applyAnswers(state, answers, signal, hooks);
      if (state.waiting.calls.length > 0) return yield* endWaiting(state, first, 0, undefined, outcome);
    } else {
      // Files are checked before anything is recorded (those `createSessions` checked, only against the
      // chat's total: every file that entered the chat, as its record keeps it): a refused one leaves
      // the chat as it was.
      const files = options?.files?.length
        ? messageFileParts(options.files, resolveFileLimits(state.options.files), transcriptOf(state).fileBytes)
        : [];
      // Calls still waiting when the user writes again are superseded (the model reads that they did
      // not run), and the user message follows. Both are recorded once the first request may be sent:
      // a budget that refuses it (or a store that cannot reserve it) leaves the chat as it was, and
      // its waiting calls answerable.
      const superseded = stageSupersede(state, (waiting) => hooks.answered(waiting, 'superseded'));
      const staged = stageUserMessage(
        state,
        files.length > 0 && text === '' ? files : [textPart(sanitizeText(text)), ...files],
      );
      const announce = () => {
        superseded.announce();
        staged.announce();
      };
      try {
        request = buildRequest(state, true);
      } catch (error) {
        announce();
        if (hasEvents(state)) yield* drainTurn(state);
        throw error;
      }
      try {
        await hooks.beforeModelCall({ request, step: 1, turnUsage: budgetTurnUsage(state) });
      } catch (error) {
        staged.undo();
        superseded.undo();
        throw error;
      }
      announce();
      if (hasEvents(state)) yield* drainTurn(state);
    }
    const { maxSteps } = config(state);
    let usage: Turn['usage'];
    for (let step = 1; step <= maxSteps; step++) {
      if (signal.aborted) throw abortError(signal);
      if (!request) {
        request = buildRequest(state, false);
        await hooks.beforeModelCall({ request, step, turnUsage: budgetTurnUsage(state) });
        if (hasEvents(state)) yield* drainTurn(state);
      }
      const sent: ModelRequest = request;
      request = null;
      recordSent(state, sent);
      emit(state, { type: 'request', request: sent, step });
      if (hasEvents(state)) yield* drainTurn(state);
      const progress = callProgress();
      inFlight = { request: sent, progress };
      usage = turnUsage(state);
      const response = yield* hooks.aroundModelCall(
        { request: sent, step, turnUsage: usage },
        callModel(state, model, sent, signal, progress),
      );
      inFlight = null;
      const used = response.usage ?? (charged ? estimatedResponse(sent, response) : undefined);
      usage = addUsage(turnUsage(state), used);
      setTurnUsage(state, usage);
      state.usage.total = addUsage(state.usage.total, used);
      emit(state, used ? { type: 'step-finish', step, usage: { ...used } } : { type: 'step-finish', step });
      const calls = withIds(state, response.toolCalls);
      const assistant: AssistantMessage = { role: 'assistant', content: responseContent(response) };
      if (calls.length > 0) assistant.toolCalls = calls;
      unanswered = calls;
      pushMessage(state, assistant);
      if (usageRead) await hooks.afterModelCall(used ?? null);
      if (hasEvents(state)) yield* drainTurn(state);
      if (calls.length === 0) {
        usage = turnUsage(state);
        const turn: Turn = {
          text: response.text,
          steps: step,
          messages: transcriptOf(state).messages.slice(first - transcriptOf(state).start),
        };
        if (usage) turn.usage = usage;
        outcome.turn = turn;
        emit(state, { type: 'finish', turn });
        if (hasEvents(state)) yield* drainTurn(state);
        return turn;
      }
      const waits: WaitingCall[] = [];
      // Calls of subagents start together (bounded); their results are recorded in call order below.
      state.runtime.prestart?.(calls, signal, (call) => hooks.toolCallAhead(call));
      for (const call of calls) {
        if (signal.aborted) throw abortError(signal);
        // A run's `finish` ended it: the calls after it in the step do not run.
        if (runFinished(state)) break;
        // A call that needs approval, or that runs in the client, is recorded as waiting: nothing runs.
        const wait = await waitFor(state, call);
        if (wait) {
          // The call is announced as any call is (the UI shows it), then waits.
          emit(state, { type: 'tool-call', toolCall: call });
          waits.push(wait);
          unanswered = unanswered.filter((c) => c !== call);
          continue;
        }
        const running = executeCall(state, call, signal, watch).then(
          () => {
            unanswered = unanswered.filter((c) => c !== call);
          },
          (error: unknown) => {
            why = 'Not run: the agent crashed while running an earlier call of this turn.';
            whyKind = 'not-run';
            unanswered = unanswered.filter((c) => c !== call);
            throw error;
          },
        );
        // The call's `tool-call` event (and whatever the tool emits) goes out while it runs, not with its result.
        if (state.turn.events) yield* drainWhile(state, running);
        else await running;
        // A subagent call whose run waits: the run's waiting calls are the chat's now.
        waits.push(...takeRunWaits(state));
      }
      if (waits.length > 0) {
        state.waiting.calls = [...state.waiting.calls, ...waits];
        return yield* endWaiting(state, first, step, turnUsage(state), outcome);
      }
      if (runFinished(state)) {
        const rest = unanswered;
        unanswered = [];
        return yield* endFinished(state, rest, first, step, outcome);
      }
    }
    throw new Error(
      `maxSteps reached: the model made ${maxSteps} calls without replying without tool calls. ` +
        'Raise createSession(..., { maxSteps }) or check the agent for a tool loop. The transcript is intact; send() again to continue.',
    );
  } catch (error) {
    outcome.error = error;
    throw error;
  } finally {
    // However the turn ends, every call gets its result: the transcript stays valid.
    for (const call of unanswered) recordResult(state, call, why, whyKind);
    // A model call that never answered (aborted, failed mid-stream) is charged what it consumed:
    // the session's usage and the owner's spend; one that consumed nothing releases its reservation.
    if (inFlight) {
      const used = consumed(inFlight.request, inFlight.progress, signal.aborted);
      if (used) state.usage.total = addUsage(state.usage.total, used);
      await hooks.afterModelCall(used).catch(() => {});
    }
    state.turn.events = null;
    state.turn.busy = false;
    await hooks.end(outcome.error === undefined && signal.aborted ? { error: abortError(signal) } : outcome);
  }
}

function stopped(): Error {
  const error = new Error('The turn was stopped: the stream was left before it finished.');
  error.name = 'AbortError';
  return error;
}

/**
 * Runs `start(signal)`, a turn generator, under its own abort signal that follows `outer`. With
 * `stopOnReturn`, leaving the iteration early (`break`, `return()`) aborts the turn at once, even
 * while it waits for the model, instead of when it next yields.
 */
export function abortable<T>(
  start: (signal: AbortSignal) => AsyncGenerator<SessionEvent, T, undefined>,
  outer: AbortSignal | undefined,
  stopOnReturn: boolean,
): AsyncGenerator<SessionEvent, T, undefined> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  const done = () => outer?.removeEventListener('abort', onAbort);
  const inner = start(controller.signal);
  const wrapper: AsyncGenerator<SessionEvent, T, undefined> = {
    async next() {
      try {
        const result = await inner.next();
        if (result.done) done();
        return result;
      } catch (error) {
        done();
        throw error;
      }
    },
    async return(value) {
      if (stopOnReturn) controller.abort(stopped());
      done();
      try {
        await inner.return(value as T);
      } catch {
        // The turn ended with the abort it was asked for.
      }
      return { value: value as T, done: true };
    },
    throw: (error) => inner.throw(error),
    [Symbol.asyncIterator]() {
      return wrapper;
    },
  } as AsyncGenerator<SessionEvent, T, undefined>;
  return wrapper;
}

/** Ends the turn waiting: the calls that wait are announced (and committed), and the turn says which. */
async function* endWaiting(
  state: SessionState,
  first: number,
  steps: number,
  usage: Turn['usage'],
  outcome: { turn?: Turn },
): AsyncGenerator<SessionEvent, Turn, undefined> {
  announceWaiting(state);
  const turn: Turn = {
    text: '',
    steps,
    messages: transcriptOf(state).messages.slice(first - transcriptOf(state).start),
    waiting: shownWaiting(state),
  };
  if (usage) turn.usage = usage;
  outcome.turn = turn;
  emit(state, { type: 'finish', turn });
  if (hasEvents(state)) yield* drainTurn(state);
  return turn;
}

/** Applies checked answers, in the order the calls were made. */
async function* applyAnswers(
  state: SessionState,
  answers: readonly ToolAnswer[],
  signal: AbortSignal,
  hooks: TurnHooks,
): AsyncGenerator<SessionEvent, void, undefined> {
  const byId = new Map(answers.map((a) => [a.toolCallId, a]));
  for (const waiting of [...state.waiting.calls]) {
    const answer = byId.get(waiting.toolCallId);
    // A call inside a run is answered by resuming its run (below).
    if (!answer || waiting.path) continue;
    const call: ToolCall = { id: waiting.toolCallId, name: waiting.name, input: waiting.input };
    hooks.answered(waiting, answer.type);
    if (answer.type === 'approve') {
      waiting.status = 'running';
      announceWaiting(state);
      if (hasEvents(state)) yield* drainTurn(state);
      // Run with the input the model gave, as stored: never one an answer carries.
      const running = executeCall(state, call, signal, (c) => hooks.toolCall(c));
      if (state.turn.events) yield* drainWhile(state, running);
      else await running;
    } else if (answer.type === 'deny') {
      const given = typeof answer.reason === 'string' ? answer.reason.trim().slice(0, 2000) : '';
      // One sentence, with the reason when there is one: "Denied: over the limit. The tool did not run."
      const reason = given ? `: ${given}${/[.!?]$/.test(given) ? '' : '.'}` : '.';
      recordResult(state, call, `Denied${reason} The tool did not run.`, 'denied');
    } else {
      let text: string;
      try {
        text = resultText(answer.output);
      } catch (error) {
        text = `The client's result is not a valid result: ${(error as Error).message}.`;
      }
      recordResult(
        state,
        call,
        cutResult(text, config(state).maxToolResultChars),
        answer.isError === true ? 'threw' : undefined,
      );
    }
    state.waiting.calls = state.waiting.calls.filter((w) => w !== waiting);
    announceWaiting(state);
    if (hasEvents(state)) yield* drainTurn(state);
  }
  yield* answerRuns(state, answers, signal, hooks);
}

/** What a turn that answers calls says it was asked (for its span). */
function describeAnswers(answers: readonly ToolAnswer[]): string {
  return answers.map((a) => `${a.type} ${a.toolCallId}`).join(', ');
}
