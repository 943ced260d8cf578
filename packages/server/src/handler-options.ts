/**
 * What `createHandler` takes and the shapes around it: its options, the client information a
 * listener passes, the `authorize` function, and the user every loopback client is without it.
 */
import type { Budget, Sessions } from '@skilltree/core';
import type { Limits } from './limits.js';
import type { ToolError } from './tool-errors.js';
import type { ServerTelemetry } from './tracing.js';

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
