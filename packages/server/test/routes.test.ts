/**
 * The route table is the one list of routes: docs/serving.md documents each of them, with its
 * methods, and nothing the table lacks; tests build their paths from it (`apiPath` in helpers).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES, routePath } from '../src/routes.js';

const serving = readFileSync(new URL('../../../docs/serving.md', import.meta.url), 'utf8');

/** `METHOD path` of each row of the routes table in docs/serving.md (`| \`POST {basePath}/chat\` | … |`). */
function documented(): string[] {
  const rows = [...serving.matchAll(/^\| `([A-Z]+) \{basePath\}(\/[^`]*)`/gm)];
  // The file route's `:file` is written `:message-:part` for readers; it is the table's `:file`.
  return rows.map(([, method, path]) => `${method} ${path.replace(':message-:part', ':file')}`).sort();
}

describe('the route table', () => {
  it('every route in the table is documented in docs/serving.md, and nothing documented that the table lacks', () => {
    const table = ROUTES.flatMap((route) => route.methods.map((method) => `${method} ${route.template}`)).sort();
    expect(documented()).toEqual(table);
  });

  it('a path is built from the table: the id is percent-encoded, and a route that has one needs it', () => {
    expect(routePath('chat', '/api')).toBe('/api/chat');
    expect(routePath('chat-stop', '/api', { id: 'a b/c' })).toBe('/api/chat/a%20b%2Fc/stop');
    expect(routePath('chat-file', '', { id: 'c1', file: '0-1' })).toBe('/chat/c1/files/0-1');
    expect(() => routePath('chat-id', '/api')).toThrow('routePath: route "chat-id" needs :id.');
  });
});
