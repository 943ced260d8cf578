import { createSessions, type Message, textOf } from '@skilltree/core';
import { expect, test } from 'vitest';
import { counterAgent } from '../fixture.js';
import type { Suite } from './suite.js';

/** Many sessions: each keeps its own record and transcript. */
export function manySessionsTests(suite: Suite): void {
  const { options, run } = suite;

  test(`many sessions: ${options.sessions ?? 1_000} sessions each keep their own record and transcript`, async () => {
    const { a, b, c } = suite;
    const count = options.sessions ?? 1_000;
    const procs = [a, b, c].map((store) => createSessions(counterAgent(), { store, model: echo, cacheSize: 50 }));
    const id = (i: number) => `${run}-many-${i}`;
    const lanes = 12;
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let i = lane; i < count; i += lanes) await procs[i % 3].send(id(i), `hello ${i}`, { owner: `u${i % 7}` });
      }),
    );
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let i = lane; i < count; i += lanes) {
          const owner = `u${i % 7}`;
          const info = await procs[(i + 1) % 3].get(id(i), { owner });
          expect(info).toMatchObject({ id: id(i), owner, transcriptLength: 2 });
          const messages = await procs[(i + 2) % 3].messages(id(i), { owner });
          expect(messages.map(textOf)).toEqual([`hello ${i}`, `echo: hello ${i}`]);
        }
      }),
    );
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let i = lane; i < count; i += lanes) {
          expect(await procs[i % 3].delete(id(i), { owner: `u${i % 7}` })).toBe(true);
        }
      }),
    );
    expect(await procs[0].get(id(0), { owner: 'u0' })).toBeNull();
    expect(await procs[1].get(id(count - 1), { owner: `u${(count - 1) % 7}` })).toBeNull();
  }, 120_000);
}

/** A model that echoes the last user message. */
const echo = {
  name: 'echo',
  async generate(req: { messages: Message[] }) {
    const last = req.messages[req.messages.length - 1];
    return { text: `echo: ${last.role === 'user' ? textOf(last) : ''}`, toolCalls: [] };
  },
};
