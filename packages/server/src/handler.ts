/**
 * `createHandler`: a Web-standard `(Request) => Promise<Response>` that serves skilltree sessions to
 * the AI SDK's `useChat`. Routes, under `basePath` (default `/api`):
 *
 * - `POST /chat`: one turn; the body is what `DefaultChatTransport` sends; the answer is the UI
 *   message stream (SSE).
 * - `GET /chat/:id`: the conversation as `UIMessage[]` (a reloaded page restores the chat).
 * - `DELETE /chat/:id`: deletes the conversation.
 * - `GET /chat/:id/stream`: the running turn's answer, resumed from the store on any worker (what
 *   `useChat({ resume: true })` asks after a reload); 204 when no turn runs.
 * - `POST /chat/:id/stop`: stops the user's running turn of the chat (a client that goes away does not).
 * - `GET /sessions/:id`: the session view: loaded skills, stores, usage, transcript length.
 */
import { type Budget, checkOwner, type Sessions } from '@skilltree/core';
import { fromBase64 } from '@skilltree/core/provider';
import { createUIMessageStreamResponse } from 'ai';
import { checkChatId, parseChatBody, readBody } from './body.js';
import { budgetError, budgetNotice, isBudgetError } from './budget-status.js';
import { turnStream } from './chat-stream.js';
import { historyCut } from './history.js';
import { errorResponse, HttpError, json, notOurs } from './http.js';
import { type Limits, resolveLimits } from './limits.js';
import { isLoopbackAddress, isLoopbackHost, isLoopbackOrigin, proxyHeader } from './loopback.js';
import { resumeStream } from './resume.js';
import { defaultToolErrorText, redactedToolError, type ToolError, type ToolErrorText } from './tool-errors.js';
import { type ServerTelemetry, startRequestSpan, traceContextOf } from './tracing.js';
import { type SkilltreeUIMessage, toUIMessages } from './ui-messages.js';

/** What the server knows about the client beyond the `Request`: its address, as the socket reported it. */
export interface ClientInfo {
  /** The peer address of the connection (`socket.remoteAddress`), never a header. */
  remoteAddress?: string;
}

/**
 * A Web-standard request handler. The second argument is optional: {@link toNodeListener} passes the
 * client's address; frameworks that pass their own context (Next.js) are fine, it is only read for
 * `remoteAddress`.
 */
export type Handler = (request: Request, client?: ClientInfo) => Promise<Response>;

/** Who is asking: a user id, or null for nobody (401). */
export type Authorize = (
  request: Request,
  client: ClientInfo,
) => string | null | undefined | Promise<string | null | undefined>;

/** Options of {@link createHandler}. */
export interface HandlerOptions {
  /** The sessions to serve (`createSessions(...)` from `@skilltree/core`). */
  sessions: Sessions;
  /**
   * Returns the user id of the request (from a cookie, a bearer token, your auth provider…) or null,
   * which answers 401. A session belongs to the user whose first message created it; to every other
   * user it does not exist (404). Without `authorize`, the handler serves loopback clients only, all
   * as the user {@link LOCAL_USER}, refuses (403) every request that came through a proxy (one that
   * carries `Forwarded`, `X-Forwarded-For`, `X-Real-IP` or another of `PROXY_HEADERS`), and
   * says so when it is created.
   */
  authorize?: Authorize;
  /** Path prefix of the routes. Default `/api` (what `DefaultChatTransport` posts to: `/api/chat`). */
  basePath?: string;
  /** Body size, message length, turn rate and history limits (see {@link Limits}). */
  limits?: Limits;
  /**
   * The text the client sees when a turn fails while it streams. Default: a generic sentence (server
   * details stay on the server; the error goes to `log`), and for a budget that stopped the turn,
   * {@link budgetNotice}'s sentence (the limit was reached, and when it resets; the option to raise
   * goes to `log`). Return `error.message` to show it.
   */
  onError?: (error: unknown) => string;
  /**
   * The text the end user sees for a tool's error result, in the UI stream and in `GET /chat/:id`
   * (called for both, so a reloaded page shows what the live one did). The transcript, and so the
   * model, keeps the real text. Default, by the result's `errorKind` (see `isToolErrorForUsers`):
   * the text itself when `error.forUsers` (what skilltree wrote about the model's call or what
   * became of it: unknown tool or skill, not run, interrupted, denied, not saved);
   * `Invalid input for tool "name"; the model was told what to fix.` for an `invalid-input` result
   * (the schema's messages may be the app's, from a refinement); else
   * `Tool "name" failed; the details stay on the server.`; the real text of those two is sent to
   * `log` as the turn streams. Return `error.message` to show every error as the model got it.
   */
  onToolError?: (error: ToolError, chat: ToolErrorChat) => string;
  /**
   * Whether the UI stream and `GET /chat/:id` carry the model's reasoning (its readable text only:
   * never a signature, redacted or encrypted reasoning). Default true.
   */
  sendReasoning?: boolean;
  /** Where the handler reports (start-up notice, failed turns). Default `console.warn`; `false` for silence. */
  log?: ((message: string) => void) | false;
  /**
   * OpenTelemetry: a server span per request (`POST /api/chat`), the turn's spans under it, and the
   * caller's trace continued from `traceparent`. On by default when `@opentelemetry/api` is
   * installed; `false` turns it off. See `docs/observability.md`.
   */
  telemetry?: ServerTelemetry;
  /**
   * The budget of each user's turns, instead of the sessions' own (e.g. by plan): a `Budget`, or a
   * function of the user id. A turn over it is answered 429 `budget_exceeded` (see `docs/serving.md`).
   */
  budget?: Budget | ((user: string) => Budget | undefined | Promise<Budget | undefined>);
  /**
   * Milliseconds a chat's stream may stay silent before the server sends an SSE comment
   * (`: keep-alive`), so that a proxy's or load balancer's read timeout does not cut the stream while
   * a long tool runs or the model thinks. The stream also opens with a comment (`: stream-open`), so
   * the response starts at once. Clients ignore comments (`useChat` and every SSE parser). Default
   * 15 000; `false` sends none.
   */
  keepAliveMs?: number | false;
}

/** The chat a tool error happened in, for `onToolError`. */
export interface ToolErrorChat {
  /** The chat (session) id. */
  id: string;
  /** The user the request is from (`authorize`'s answer, or {@link LOCAL_USER}). */
  user: string;
}

/** The user id every loopback client has when the handler has no `authorize`. */
export const LOCAL_USER = 'local';

/** What a handler without `authorize` says when it is created (`skilltree serve` prints it too). */
export const LOOPBACK_NOTICE =
  '@skilltree/server: no authorize option, so only loopback clients (127.0.0.1, ::1) are served, all as one user ' +
  `("${LOCAL_USER}"), and requests that came through a proxy (Forwarded, X-Forwarded-For, X-Real-IP…) are refused. ` +
  'Pass authorize(request) => userId to serve other clients.';

const GENERIC_ERROR = 'The agent could not finish this turn. Try again.';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/**
 * The routes, as one table: the path template (under `basePath`), the methods each takes. Dispatch,
 * the `Allow` header of a 405 and the traces' `http.route` all read it.
 */
const ROUTES = [
  { name: 'chat', template: '/chat', methods: ['POST'] },
  { name: 'chat-id', template: '/chat/:id', methods: ['GET', 'DELETE'] },
  { name: 'chat-stream', template: '/chat/:id/stream', methods: ['GET'] },
  { name: 'chat-stop', template: '/chat/:id/stop', methods: ['POST'] },
  { name: 'chat-file', template: '/chat/:id/files/:file', methods: ['GET'] },
  { name: 'session', template: '/sessions/:id', methods: ['GET'] },
] as const;

type RouteName = (typeof ROUTES)[number]['name'];

/** A route of the table matched: its entry, and the chat id in the path (checked), when it has one. */
interface Route {
  name: RouteName;
  template: string;
  methods: readonly string[];
  id: string;
  /** `:file`, as `<message>-<part>` (indexes), when the route has it. */
  file: { message: number; part: number } | null;
}

/** A `:file` segment: the message's index and the part's, both whole numbers. */
function fileRef(segment: string): { message: number; part: number } {
  const match = /^(\d{1,9})-(\d{1,4})$/.exec(segment);
  if (!match) throw new HttpError(404, 'not_found', 'No such file.');
  return { message: Number(match[1]), part: Number(match[2]) };
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'invalid_id', 'Invalid percent-encoding in the path.');
  }
}

function route(pathname: string, base: string): Route | null {
  if (pathname !== base && !pathname.startsWith(`${base}/`)) return null;
  const segments = pathname.slice(base.length).split('/').slice(1);
  for (const entry of ROUTES) {
    const parts = entry.template.split('/').slice(1);
    if (parts.length !== segments.length) continue;
    if (!parts.every((part, i) => part.startsWith(':') || part === segments[i])) continue;
    const at = parts.indexOf(':id');
    const file = parts.indexOf(':file');
    return {
      ...entry,
      id: at === -1 ? '' : checkChatId(decode(segments[at])),
      file: file === -1 ? null : fileRef(segments[file]),
    };
  }
  return null;
}

/** The default `keepAliveMs`: under the 30–60 s read timeouts proxies and load balancers default to. */
const KEEP_ALIVE_MS = 15_000;

function keepAlive(option: number | false | undefined): number | undefined {
  if (option === false) return undefined;
  if (option === undefined) return KEEP_ALIVE_MS;
  if (typeof option !== 'number' || !Number.isFinite(option) || option <= 0 || option > 2_147_483_647) {
    throw new Error(
      `createHandler: keepAliveMs must be a number of milliseconds above 0 (e.g. 15000), or false for no keep-alive comments (got ${String(option)}).`,
    );
  }
  return option;
}

function normalizeBase(basePath: string): string {
  const trimmed = basePath.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  if (!trimmed.startsWith('/')) throw new Error(`createHandler: basePath must start with "/" (got "${basePath}").`);
  return trimmed;
}

/**
 * Creates the handler. It works wherever a `(Request) => Response` does: a Hono route, a Next.js route
 * handler, Deno/Bun, and Node's `http` or Express through {@link toNodeListener}.
 *
 * @example
 * const handler = createHandler({
 *   sessions: createSessions(<ShopAgent />, { store: sqliteStore({ path: './sessions.db' }), model }),
 *   authorize: async (request) => (await auth.userFrom(request))?.id ?? null,
 * });
 * app.all('/api/*', (c) => handler(c.req.raw));   // Hono
 */
export function createHandler(options: HandlerOptions): Handler {
  const { sessions, authorize } = options;
  if (!sessions || typeof sessions.stream !== 'function') {
    throw new Error('createHandler: pass { sessions } made with createSessions() from @skilltree/core.');
  }
  const base = normalizeBase(options.basePath ?? '/api');
  const keepAliveMs = keepAlive(options.keepAliveMs);
  const limits = resolveLimits(options.limits);
  const log = options.log === false ? () => {} : (options.log ?? ((line: string) => console.warn(line)));
  const onError =
    options.onError ??
    ((error: unknown) => {
      log(`@skilltree/server: a turn failed: ${errorText(error)}`);
      return GENERIC_ERROR;
    });
  if (!authorize) log(LOOPBACK_NOTICE);

  /** The tool error text of one chat's parts; `live` when the turn streams (the default logs it then, once). */
  function toolErrorText(chat: ToolErrorChat, live: boolean): ToolErrorText {
    return (error) => {
      if (!options.onToolError) {
        if (!error.forUsers && live) {
          log(`@skilltree/server: tool "${error.toolName}" failed in chat ${chat.id}: ${error.message}`);
        }
        return defaultToolErrorText(error);
      }
      try {
        const text = options.onToolError(error, chat);
        if (typeof text === 'string') return text;
        throw new Error(`it returned ${typeof text}, not a string`);
      } catch (failure) {
        if (live) log(`@skilltree/server: onToolError failed: ${errorText(failure)}`);
        return redactedToolError(error.toolName);
      }
    };
  }

  async function identify(request: Request, client: ClientInfo): Promise<string> {
    if (authorize) {
      const user = await authorize(request, client);
      if (typeof user !== 'string' || user === '') {
        throw new HttpError(401, 'unauthorized', 'Sign in first: this request has no valid credentials.');
      }
      try {
        // An id no store can keep exactly (a lone surrogate) or at all (NUL) never owns a chat.
        checkOwner(user);
      } catch (error) {
        log(`@skilltree/server: authorize returned a user id that cannot own chats: ${errorText(error)}`);
        throw new HttpError(403, 'invalid_user', 'This user id cannot be served: sign in with another account.');
      }
      return user;
    }
    // Behind a same-host proxy or tunnel every client's socket is loopback: refuse what came through one.
    const proxied = proxyHeader(request.headers);
    if (proxied) {
      throw new HttpError(
        403,
        'forbidden',
        `This server has no authorize option, and this request came through a proxy (it carries ${proxied}): ` +
          'behind a proxy every client looks local, so it serves nobody. Pass authorize to serve clients through a proxy.',
      );
    }
    if (client.remoteAddress === undefined) {
      throw new HttpError(
        403,
        'forbidden',
        'This server has no authorize option and does not know the client address, so it serves nobody. ' +
          'Pass authorize, or serve it with toNodeListener (which passes the address).',
      );
    }
    if (!isLoopbackAddress(client.remoteAddress)) {
      throw new HttpError(
        403,
        'forbidden',
        'This server has no authorize option: it serves loopback clients (127.0.0.1, ::1) only.',
      );
    }
    // A page elsewhere must not reach a local server by DNS rebinding or a cross-site request.
    if (!isLoopbackHost(request.headers.get('host') ?? new URL(request.url).host)) {
      throw new HttpError(403, 'forbidden', 'This server has no authorize option: use it through localhost.');
    }
    if (!isLoopbackOrigin(request.headers.get('origin'))) {
      throw new HttpError(403, 'forbidden', 'This server has no authorize option: pages on other sites cannot use it.');
    }
    return LOCAL_USER;
  }

  async function chat(request: Request, user: string): Promise<Response> {
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
    // The turn runs to its end even when the client goes away (a reload resumes its answer):
    // only the stop route (POST /chat/:id/stop) stops it.
    const controller = new AbortController();
    const stopKey = `${user}\u0000${id}`;
    running.set(stopKey, controller);
    const signal = controller.signal;
    const budget = typeof options.budget === 'function' ? await options.budget(user) : options.budget;
    const turn = { signal, owner: user, traceContext: traceContextOf(request), ...(budget ? { budget } : {}) };
    let events: AsyncIterator<unknown>;
    let answered: string[] = [];
    if (body.answers) {
      // Only answers to calls of this chat that wait count: a replayed, forged or answered id runs nothing.
      const info = await sessions.get(id, { owner: user });
      if (!info) throw new HttpError(404, 'not_found', 'No such chat.');
      const waits = new Map(info.waiting.map((w) => [w.toolCallId, w]));
      const answers = body.answers.filter((answer) => {
        const waiting = waits.get(answer.toolCallId);
        if (!waiting) return false;
        return answer.type === 'deny' || (answer.type === 'approve') === (waiting.for === 'approval');
      });
      if (answers.length === 0) {
        throw new HttpError(
          409,
          'not_waiting',
          'Nothing to answer: no call of this chat waits for these answers (they were answered already, or are unknown).',
        );
      }
      answered = answers.map((answer) => answer.toolCallId);
      events = sessions.answerStream(id, answers, turn)[Symbol.asyncIterator]();
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
      running.delete(stopKey);
      const name = error instanceof Error ? error.name : '';
      if (name === 'SessionNotFoundError') throw new HttpError(404, 'not_found', 'No such chat.');
      if (name === 'SessionBusyError') {
        throw new HttpError(409, 'busy', 'This chat is answering another message: wait for it to finish.');
      }
      if (name === 'ToolAnswerError') throw new HttpError(409, 'not_waiting', (error as Error).message);
      if (name === 'FileRejectedError') throw fileError(error as Error & { code: string });
      if (isBudgetError(error)) {
        log(`@skilltree/server: a turn of user "${user}" in chat ${id} was refused: ${error.message}`);
        throw budgetError(error);
      }
      throw error;
    }
    let cancelled = false;
    const stream = turnStream({
      events: events as AsyncIterator<never>,
      first: first as IteratorResult<never>,
      onError: (error) => {
        if (cancelled || signal.aborted || isAbort(error)) return 'The turn was stopped.';
        if (!isBudgetError(error) || options.onError) return onError(error);
        // The end user reads that a limit was reached; the option to raise goes to the log.
        log(`@skilltree/server: a turn of user "${user}" in chat ${id} stopped: ${error.message}`);
        return budgetNotice(error);
      },
      toolErrorText: toolErrorText({ id, user }, true),
      sendReasoning: options.sendReasoning !== false,
      answered,
      ...(body.messageId ? { messageId: body.messageId } : {}),
      onClose: () => {
        if (running.get(stopKey) === controller) running.delete(stopKey);
      },
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

  /** The turns this handler runs, by user and chat: what the stop route stops. */
  const running = new Map<string, AbortController>();

  async function history(id: string, user: string): Promise<Response> {
    const info = await sessions.get(id, { owner: user });
    if (!info) throw new HttpError(404, 'not_found', 'No such chat.');
    // A running turn's answer is left out: GET /chat/:id/stream sends it (whole, and as it goes on).
    const length = info.running ? Math.min(info.transcriptLength, info.running.from + 1) : info.transcriptLength;
    const cut = await historyCut(sessions, id, user, length, limits.maxHistoryMessages);
    const ui: SkilltreeUIMessage[] = toUIMessages(cut.messages, {
      start: cut.start,
      waiting: info.waiting,
      idle: !info.running,
      sendReasoning: options.sendReasoning !== false,
      fileUrl: (message, part) => `${base}/chat/${encodeURIComponent(id)}/files/${message}-${part}`,
      toolErrorText: toolErrorText({ id, user }, false),
    });
    if (cut.callsFrom !== undefined && ui.length > 0) ui[0].id = `m${cut.callsFrom}`;
    return json(ui);
  }

  async function handle(request: Request, client: ClientInfo): Promise<Response> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      throw new HttpError(400, 'bad_request', 'Invalid request URL.');
    }
    const found = route(url.pathname, base);
    if (!found) return notOurs();
    const method = request.method.toUpperCase();
    if (!found.methods.includes(method)) {
      const allow = found.methods.join(', ');
      throw new HttpError(405, 'method_not_allowed', `Use ${allow} here.`, { allow });
    }
    const user = await identify(request, client);
    switch (found.name) {
      case 'chat':
        return chat(request, user);
      case 'chat-id':
        if (method === 'DELETE') {
          if (!(await sessions.delete(found.id, { owner: user })))
            throw new HttpError(404, 'not_found', 'No such chat.');
          return new Response(null, { status: 204 });
        }
        return history(found.id, user);
      case 'chat-stream': {
        // A running turn (in any worker) resumes from the store; none running: 204, as useChat expects.
        // A chat that is not there (never used, or another user's) has nothing to resume either.
        const info = await sessions.get(found.id, { owner: user });
        if (!info?.running) return new Response(null, { status: 204 });
        const stream = resumeStream({
          sessions,
          id: found.id,
          owner: user,
          from: info.running.from,
          toolErrorText: toolErrorText({ id: found.id, user }, false),
          sendReasoning: options.sendReasoning !== false,
          signal: request.signal,
        });
        return createUIMessageStreamResponse({
          stream,
          headers: { 'cache-control': 'no-cache, no-transform' },
          ...(keepAliveMs ? { keepAliveMs } : {}),
        });
      }
      case 'chat-file': {
        // The chat's owner only: another user, a chat never used and a part that is no file all
        // get the same 404.
        const ref = found.file as { message: number; part: number };
        const [message] = await sessions.messages(found.id, { from: ref.message, limit: 1, owner: user });
        const part = message && message.role !== 'assistant' ? message.content[ref.part] : undefined;
        if (part?.type !== 'file' || !part.data) throw new HttpError(404, 'not_found', 'No such file.');
        return new Response(fromBase64(part.data) as Uint8Array<ArrayBuffer>, {
          headers: {
            'content-type': part.mediaType,
            'content-disposition': `inline${part.filename ? `; filename*=UTF-8''${encodeURIComponent(part.filename)}` : ''}`,
            // What the bytes were checked to be, and nothing that could run.
            'x-content-type-options': 'nosniff',
            'content-security-policy': "default-src 'none'; sandbox",
            'cache-control': 'private, max-age=3600',
          },
        });
      }
      case 'chat-stop': {
        // Stops this user's running turn of the chat in this process; what it did stays committed.
        const controller = running.get(`${user}\u0000${found.id}`);
        if (!controller) return new Response(null, { status: 204 });
        controller.abort(stopRequested());
        return new Response(null, { status: 202 });
      }
      case 'session': {
        const info = await sessions.get(found.id, { owner: user });
        if (!info) throw new HttpError(404, 'not_found', 'No such session.');
        return json(info);
      }
    }
  }

  const template = (url: string): string | null => {
    try {
      const found = route(new URL(url).pathname, base);
      return found ? base + found.template : null;
    } catch {
      return null;
    }
  };

  return async (request, client) => {
    const span = await startRequestSpan(request, template(request.url), options.telemetry);
    try {
      const response = await handle(request, { remoteAddress: client?.remoteAddress });
      return span ? span.finish(response) : response;
    } catch (error) {
      if (error instanceof HttpError) return span ? span.finish(errorResponse(error)) : errorResponse(error);
      span?.fail(error);
      log(`@skilltree/server: ${request.method} ${safePath(request.url)} failed: ${errorText(error)}`);
      return errorResponse(new HttpError(500, 'internal', 'The server failed to answer this request.'));
    }
  };
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '(invalid url)';
  }
}

/** A refused file as an HTTP error: too large is 413, not a type the session takes is 415, the rest 400. */
function fileError(error: Error & { code: string }): HttpError {
  const status = /too-large|too-many/.test(error.code) ? 413 : /type/.test(error.code) ? 415 : 400;
  return new HttpError(status, `file_${error.code.replace(/-/g, '_')}`, error.message);
}

function stopRequested(): Error {
  const error = new Error('The turn was stopped (POST /chat/:id/stop).');
  error.name = 'AbortError';
  return error;
}
