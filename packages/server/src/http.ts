/**
 * Small HTTP pieces: JSON answers, error answers with a stable shape, and the marker for requests
 * outside the handler's routes (so a Node/Express adapter can pass them on).
 */

/** A request the handler refuses, with the status and the message the client gets. */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    /** HTTP status, e.g. 413. */
    readonly status: number,
    /** A stable machine-readable code, e.g. `body_too_large`. */
    readonly code: string,
    message: string,
    /** Extra response headers, e.g. `retry-after`. */
    readonly headers: Record<string, string> = {},
    /** Extra fields of the JSON error beside `code` and `message`, e.g. the budget that was exceeded. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const NO_STORE = { 'cache-control': 'no-store' };

/** A JSON response that no cache keeps. */
export function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...NO_STORE, ...headers },
  });
}

/** The answer to a refused request: `{ error: { code, message, ...details } }` with the error's status. */
export function errorResponse(error: HttpError): Response {
  return json({ error: { ...error.details, code: error.code, message: error.message } }, error.status, error.headers);
}

const unmatched = new WeakSet<Response>();

/** A 404 for a path outside the handler's routes, marked so that {@link isUnmatched} knows it. */
export function notOurs(): Response {
  const response = errorResponse(new HttpError(404, 'not_found', 'No such route.'));
  unmatched.add(response);
  return response;
}

/**
 * Whether `response` is the handler's answer to a path outside its routes (under `basePath`). Node and
 * Express adapters use it to pass such requests to the next middleware.
 */
export function isUnmatched(response: Response): boolean {
  return unmatched.has(response);
}
