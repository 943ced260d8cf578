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
 * - `POST /chat/:id/stop`: stops the user's running turn of the chat, on whichever worker it runs (a
 *   client that goes away does not).
 * - `GET /sessions/:id`: the session view: loaded skills, stores, usage, transcript length.
 */
import { fromBase64, resolveFileLimits } from '@skilltree/core/provider';
import { createUIMessageStreamResponse } from 'ai';
import {
  type ClientInfo,
  type Handler,
  type HandlerOptions,
  LOOPBACK_NOTICE,
  type ToolErrorChat,
} from './handler-options.js';
import { historyCut } from './history.js';
import { errorResponse, HttpError, json, notOurs } from './http.js';
import { identify } from './identify.js';
import { resolveLimits } from './limits.js';
import { type ChatContext, postChat } from './post-chat.js';
import { resumeStream } from './resume.js';
import { endingWith, Resumers } from './resumers.js';
import { route, routePath, routeTemplate } from './routes.js';
import { defaultToolErrorText, redactedToolError, type ToolErrorText } from './tool-errors.js';
import { startRequestSpan } from './tracing.js';
import { turnStart } from './turn-start.js';
import { type SkilltreeUIMessage, toUIMessages } from './ui-messages.js';

export {
  type Authorize,
  type ClientInfo,
  type Handler,
  type HandlerOptions,
  LOCAL_USER,
  LOOPBACK_NOTICE,
  type ToolErrorChat,
} from './handler-options.js';

const GENERIC_ERROR = 'The agent could not finish this turn. Try again.';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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
  // The body limit follows the file limits the sessions check (defaults for sessions that predate them).
  const limits = resolveLimits(options.limits ?? {}, sessions.fileLimits ?? resolveFileLimits());
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

  const resumers = new Resumers(limits.maxResumersPerUser);
  const ctx: ChatContext = { sessions, options, limits, keepAliveMs, log, onError, toolErrorText };

  async function history(id: string, user: string): Promise<Response> {
    const info = await sessions.get(id, { owner: user });
    if (!info) throw new HttpError(404, 'not_found', 'No such chat.');
    // A running turn's answer is left out: GET /chat/:id/stream sends it (whole, and as it goes on).
    const start = info.running && (await turnStart(sessions, id, user, { ...info, running: info.running }));
    const length = start ? Math.min(info.transcriptLength, start.historyEnd) : info.transcriptLength;
    const cut = await historyCut(sessions, id, user, length, limits.maxHistoryMessages);
    const subagentRuns = await sessions.subagentRuns(id, { owner: user });
    const ui: SkilltreeUIMessage[] = toUIMessages(cut.messages, {
      start: cut.start,
      waiting: info.waiting,
      idle: !info.running,
      sendReasoning: options.sendReasoning !== false,
      fileUrl: (message, part) => routePath('chat-file', base, { id, file: `${message}-${part}` }),
      toolErrorText: toolErrorText({ id, user }, false),
      subagentRuns,
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
    const user = await identify(request, client, authorize, log);
    switch (found.name) {
      case 'chat':
        return postChat(ctx, request, user);
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
        const release = resumers.take(user);
        let start: Awaited<ReturnType<typeof turnStart>>;
        try {
          start = await turnStart(sessions, found.id, user, { ...info, running: info.running });
        } catch (error) {
          release();
          throw error;
        }
        const resumed = resumeStream({
          sessions,
          id: found.id,
          owner: user,
          from: info.running.from,
          readFrom: start.readFrom,
          messageId: start.messageId,
          toolErrorText: toolErrorText({ id: found.id, user }, false),
          sendReasoning: options.sendReasoning !== false,
          signal: request.signal,
        });
        return createUIMessageStreamResponse({
          stream: endingWith(resumed, release),
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
        // Stops this user's running turn of the chat in whichever worker runs it (through the store);
        // what it did stays committed. A message waiting behind it is not stopped: it runs next.
        const stopped = await sessions.stop(found.id, { owner: user });
        return new Response(null, { status: stopped ? 202 : 204 });
      }
      case 'session': {
        const info = await sessions.get(found.id, { owner: user });
        if (!info) throw new HttpError(404, 'not_found', 'No such session.');
        return json(info);
      }
    }
  }

  return async (request, client) => {
    const span = await startRequestSpan(request, routeTemplate(request.url, base), options.telemetry);
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
