/**
 * The handler's routes as one table (in the manner of hono): path templates under `basePath` and
 * the methods each takes. Dispatch, the `Allow` header of a 405 and the traces' `http.route` all
 * read it.
 */
import { checkChatId } from './body.js';
import { HttpError } from './http.js';

/**
 * The routes, as one table: the path template (under `basePath`), the methods each takes. Dispatch,
 * the `Allow` header of a 405 and the traces' `http.route` all read it.
 */
export const ROUTES = [
  { name: 'chat', template: '/chat', methods: ['POST'] },
  { name: 'chat-id', template: '/chat/:id', methods: ['GET', 'DELETE'] },
  { name: 'chat-stream', template: '/chat/:id/stream', methods: ['GET'] },
  { name: 'chat-stop', template: '/chat/:id/stop', methods: ['POST'] },
  { name: 'chat-file', template: '/chat/:id/files/:file', methods: ['GET'] },
  { name: 'session', template: '/sessions/:id', methods: ['GET'] },
] as const;

/** The name of a route of {@link ROUTES}. */
export type RouteName = (typeof ROUTES)[number]['name'];

/**
 * The path of route `name` under `base`, its `:id` and `:file` filled in (the id percent-encoded):
 * what the handler's file URLs and the tests build their paths with, so a route changes in the table
 * only.
 */
export function routePath(name: RouteName, base: string, params: { id?: string; file?: string } = {}): string {
  const entry = ROUTES.find((r) => r.name === name) as (typeof ROUTES)[number];
  const path = entry.template.replace(/:(id|file)\b/g, (_, key: 'id' | 'file') => {
    const value = params[key];
    if (value === undefined) throw new Error(`routePath: route "${name}" needs :${key}.`);
    return encodeURIComponent(value);
  });
  return base + path;
}

/** A route of the table matched: its entry, and the chat id in the path (checked), when it has one. */
export interface Route {
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

/** The route of the table `pathname` (under `base`) matches, or null when it is none of ours. */
export function route(pathname: string, base: string): Route | null {
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

/** The route template of `url` (for traces), or null when it is none of ours. */
export function routeTemplate(url: string, base: string): string | null {
  try {
    const found = route(new URL(url).pathname, base);
    return found ? base + found.template : null;
  } catch {
    return null;
  }
}
