/**
 * Chats hold the specs of the tools they were told about (their lifecycle record). Alike from chat
 * to chat, they are kept once per process: restored chats and the memory store's records share one
 * object per distinct spec.
 */
import { describe, expect, test } from 'vitest';
import { createSessions, type Model, memoryStore } from '../src/index.js';
import { internToolSpec } from '../src/sessions/intern-spec.js';
import { CounterAgent } from './fixtures.js';

/** Reads the counter skill on the first message, then answers. */
const reader = (): Model => ({
  async generate(req) {
    const last = req.messages[req.messages.length - 1];
    if (last.role === 'user' && !req.tools.some((t) => t.name === 'bump')) {
      return { text: '', toolCalls: [{ id: '', name: 'read_skill', input: { name: 'counter' } }] };
    }
    return { text: 'ok', toolCalls: [] };
  },
});

/** The tool specs a stored state's lifecycle holds. */
function toldSpecs(state: { lifecycle?: { records: { entries: { type: string; tools?: unknown }[] }[] } }) {
  return (state.lifecycle?.records ?? []).flatMap((r) =>
    r.entries.flatMap((e) => (e.type === 'loaded' && Array.isArray(e.tools) ? e.tools : [])),
  );
}

describe('tool specs are kept once per process', () => {
  test("two chats' records in the memory store share one object per tool spec", async () => {
    const store = memoryStore();
    const sessions = createSessions(<CounterAgent />, { store, model: reader() });
    await sessions.send('a', 'hi');
    await sessions.send('b', 'hi');
    const a = toldSpecs((await store.record('a'))?.state ?? {});
    const b = toldSpecs((await store.record('b'))?.state ?? {});
    expect(a.length).toBeGreaterThan(0);
    expect(a).toEqual(b);
    for (const [i, spec] of a.entries()) expect(spec).toBe(b[i]);
    await sessions.close();
  });

  test('specs that differ in name, description or schema are not merged', () => {
    const schema = { type: 'object', properties: {} };
    const one = internToolSpec({ name: 'x', description: 'd', inputSchema: schema });
    expect(internToolSpec({ name: 'x', description: 'd', inputSchema: { ...schema } })).toBe(one);
    expect(internToolSpec({ name: 'y', description: 'd', inputSchema: schema })).not.toBe(one);
    expect(internToolSpec({ name: 'x', description: 'e', inputSchema: schema })).not.toBe(one);
    expect(
      internToolSpec({ name: 'x', description: 'd', inputSchema: { type: 'object', properties: { q: {} } } }),
    ).not.toBe(one);
  });
});
