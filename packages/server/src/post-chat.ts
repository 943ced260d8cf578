/**
 * `POST /chat`: one turn (or the answers to waiting calls), streamed as the AI SDK's UI message
 * stream. Refusals before the turn holds the session get a status; failures after it end the stream
 * with an error text.
 */

import type { SessionInfo, Sessions, SubagentRun, ToolAnswer } from '@skilltree/core';
import { createUIMessageStreamResponse } from 'ai';
import { type ChatAnswer, parseChatBody, readBody } from './body.js';
import { budgetError, budgetNotice, isBudgetError } from './budget-status.js';
import { turnStream } from './chat-stream.js';
import type { HandlerOptions, ToolErrorChat } from './handler-options.js';
import { HttpError } from './http.js';
import type { ResolvedLimits } from './limits.js';
import type { ToolErrorText } from './tool-errors.js';
import { traceContextOf } from './tracing.js';
import { turnStart } from './turn-start.js';

/** What a handler's routes share: its sessions and options (resolved). */
export interface ChatContext {
  sessions: HandlerOptions['sessions'];
  options: HandlerOptions;
  limits: ResolvedLimits;
  keepAliveMs: number | undefined;
  log: (line: string) => void;
  /** The text the client sees for an error that ends a turn. */
  onError: (error: unknown) => string;
  /** The tool error text of one chat's parts; `live` when the turn streams. */
  toolErrorText: (chat: ToolErrorChat, live: boolean) => ToolErrorText;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** A refused file as an HTTP error: too large is 413, not a type the session takes is 415, the rest 400. */
function fileError(error: Error & { code: string }): HttpError {
  const status = /too-large|too-many/.test(error.code) ? 413 : /type/.test(error.code) ? 415 : 400;
  return new HttpError(status, `file_${error.code.replace(/-/g, '_')}`, error.message);
}

/**
 * The answers of a body that answer calls of this chat that wait: a replayed, forged or answered id
 * runs nothing. An approval or denial must be bound to the call the person saw: its approval id names
 * the chat's incarnation (a page of a chat deleted and started again answers nothing in the new one)
 * and its part carries the input shown. Anything else is a 409 that names the mismatch; the session
 * checks the binding again under the chat's lease.
 */
function waitingAnswers(given: readonly ChatAnswer[], info: SessionInfo): ChatAnswer[] {
  const answers = given.map((answer) => insideRun(answer, info));
  const approvals = answers.filter((answer) => answer.type !== 'result');
  if (approvals.some((answer) => answer.incarnation !== undefined && answer.incarnation !== info.incarnation)) {
    throw new HttpError(409, 'wrong_incarnation', STALE);
  }
  const waits = new Map(info.waiting.map((w) => [w.toolCallId, w]));
  const kept = answers.filter((answer) => {
    const waiting = waits.get(answer.toolCallId);
    if (!waiting) return false;
    return answer.type === 'deny' || (answer.type === 'approve') === (waiting.for === 'approval');
  });
  if (kept.length === 0) {
    throw new HttpError(
      409,
      'not_waiting',
      'Nothing to answer: no call of this chat waits for these answers (they were answered already, or are unknown).',
    );
  }
  for (const answer of kept) {
    if (answer.type === 'result') continue;
    // A call inside a run is shown in its run's part, not on the tool part that carries the answer:
    // its approval id (incarnation and call) binds the answer to it.
    if (waits.get(answer.toolCallId)?.path?.length && answer.incarnation !== undefined) continue;
    if (answer.incarnation === undefined) {
      throw new HttpError(
        409,
        'wrong_incarnation',
        `The answer to call "${answer.toolCallId}" does not name the chat it was shown in (its approval id is not one this server gave): reload the chat and answer the call it shows.`,
      );
    }
    if (!('input' in answer)) {
      throw new HttpError(
        409,
        'input_differs',
        `The answer to call "${answer.toolCallId}" does not carry the input it approves: send the tool part as it was shown (with its input).`,
      );
    }
  }
  return kept;
}

/**
 * An approval whose id names a call waiting inside a subagent run (shown on the tool part of the
 * parent's call) answers that call, bound by the id's incarnation; `shownOn` keeps the part's call,
 * whose outcome the answer's stream carries. Any other answer is as given.
 */
function insideRun(answer: ChatAnswer, info: SessionInfo): ChatAnswer & { shownOn?: string } {
  const inside = answer.inside;
  if (!inside || answer.type === 'result') return answer;
  const waiting = info.waiting.find((w) => w.toolCallId === inside.toolCallId);
  if (!waiting?.path?.length) return answer;
  const { inside: _, input: __, ...rest } = answer;
  return { ...rest, toolCallId: inside.toolCallId, incarnation: inside.incarnation, shownOn: answer.toolCallId };
}

/** An answer as the session takes it: what binds it, without the server's own notes. */
function toolAnswer(answer: ChatAnswer & { shownOn?: string }): ToolAnswer {
  const { inside: _, shownOn: __, ...rest } = answer;
  return rest;
}

const STALE =
  'This answer was given in an earlier incarnation of this chat (it was deleted and started again since): nothing ran. Reload the chat and answer the calls it shows now.';

/** A refused answer as a 409 that names the mismatch (`ToolAnswerError.code`). */
function answerError(error: Error & { code?: unknown }): HttpError {
  const code =
    error.code === 'wrong-incarnation'
      ? 'wrong_incarnation'
      : error.code === 'input-differs'
        ? 'input_differs'
        : 'not_waiting';
  return new HttpError(409, code, error.message);
}

/** Runs one turn of the chat the body names, for `user`, and answers its UI message stream. */
export async function postChat(ctx: ChatContext, request: Request, user: string): Promise<Response> {
  const { sessions, options, limits, log, keepAliveMs } = ctx;
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new HttpError(415, 'unsupported_media_type', 'Send the body as JSON (content-type: application/json).');
  }
  const body = parseChatBody(await readBody(request, limits.maxBodyBytes), limits.maxMessageLength);
  const { id, text } = body;
  if (limits.rateLimiter) {
    const decision = await limits.rateLimiter.take(user);
    if (!decision.ok) {
      const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      throw new HttpError(429, 'rate_limited', `Too many messages: try again in ${seconds} s.`, {
        'retry-after': String(seconds),
      });
    }
  }
  // The turn runs to its end even when the client goes away (a reload resumes its answer): it takes
  // no signal of the request. Only the stop route (POST /chat/:id/stop, `sessions.stop`) stops it,
  // from any worker.
  const budget = typeof options.budget === 'function' ? await options.budget(user) : options.budget;
  const turn = { owner: user, traceContext: traceContextOf(request), ...(budget ? { budget } : {}) };
  let events: AsyncIterator<unknown>;
  let answered: string[] = [];
  let runs: SubagentRun[] = [];
  if (body.answers) {
    const info = await sessions.get(id, { owner: user });
    if (!info) throw new HttpError(404, 'not_found', 'No such chat.');
    const answers = waitingAnswers(body.answers, info);
    // The parts the answers were given on: an answer to a call inside a run finishes its parent's call.
    answered = answers.map((answer) => (answer as { shownOn?: string }).shownOn ?? answer.toolCallId);
    runs = answers.some((answer) => 'shownOn' in answer) ? await sessions.subagentRuns(id, { owner: user }) : [];
    events = sessions.answerStream(id, answers.map(toolAnswer), turn)[Symbol.asyncIterator]();
  } else {
    events = sessions
      .stream(id, text, body.files.length > 0 ? { ...turn, files: body.files } : turn)
      [Symbol.asyncIterator]();
  }
  let first: IteratorResult<unknown>;
  try {
    // The first event comes once the turn holds the session: refusals before it get a status.
    first = await events.next();
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'SessionNotFoundError') throw new HttpError(404, 'not_found', 'No such chat.');
    if (name === 'SessionBusyError') {
      throw new HttpError(409, 'busy', 'This chat is answering another message: wait for it to finish.');
    }
    if (name === 'ToolAnswerError') throw answerError(error as Error & { code?: unknown });
    if (name === 'FileRejectedError') throw fileError(error as Error & { code: string });
    if (isBudgetError(error)) {
      log(`@skilltree/server: a turn of user "${user}" in chat ${id} was refused: ${error.message}`);
      throw budgetError(error);
    }
    throw error;
  }
  // A new message's answer goes under the id the history and a resumed stream give it (`m<index>`),
  // so a page that reconnects or reloads mid-turn continues the same message. The store says where
  // the turn starts once its user message is committed: the events up to it are held until then.
  let messageId = body.messageId;
  if (!body.answers) {
    const held = await upToUserMessage(first, events);
    events = held.events;
    messageId = (await answerIdOf(sessions, id, user)) ?? messageId;
  }
  let cancelled = false;
  const stream = turnStream({
    events: events as AsyncIterator<never>,
    first: first as IteratorResult<never>,
    onError: (error) => {
      if (cancelled || isAbort(error)) return 'The turn was stopped.';
      if (!isBudgetError(error) || options.onError) return ctx.onError(error);
      // The end user reads that a limit was reached; the option to raise goes to the log.
      log(`@skilltree/server: a turn of user "${user}" in chat ${id} stopped: ${error.message}`);
      return budgetNotice(error);
    },
    toolErrorText: ctx.toolErrorText({ id, user }, true),
    sendReasoning: options.sendReasoning !== false,
    answered,
    subagentRuns: runs,
    ...(messageId ? { messageId } : {}),
    onCancel: () => {
      cancelled = true;
    },
    detachOnCancel: true,
  });
  return createUIMessageStreamResponse({
    stream,
    headers: { 'cache-control': 'no-cache, no-transform' },
    ...(keepAliveMs ? { keepAliveMs } : {}),
  });
}

/** The id of the running turn's answer (see `turnStart`), or undefined when the store does not say yet. */
async function answerIdOf(sessions: Sessions, id: string, owner: string): Promise<string | undefined> {
  const info = await sessions.get(id, { owner });
  return info?.running ? (await turnStart(sessions, id, owner, { running: info.running })).messageId : undefined;
}

/**
 * Takes the events before the turn's user message is committed (its context changes come first) and
 * gives an iterator that yields them again, then the rest: a failure while taking them comes out there.
 */
async function upToUserMessage(
  first: IteratorResult<unknown>,
  events: AsyncIterator<unknown>,
): Promise<{ events: AsyncIterator<unknown> }> {
  const taken: IteratorResult<unknown>[] = [];
  let failure: { error: unknown } | null = null;
  let last = first;
  try {
    while (!last.done && (last.value as { type?: unknown }).type === 'context-changed' && taken.length < 10) {
      last = await events.next();
      taken.push(last);
    }
  } catch (error) {
    failure = { error };
  }
  return {
    events: {
      next: async () => {
        const next = taken.shift();
        if (next) return next;
        if (failure) {
          const { error } = failure;
          failure = null;
          throw error;
        }
        return events.next();
      },
      return: async (value?: unknown) => (await events.return?.(value)) ?? { done: true, value: undefined },
    },
  };
}
