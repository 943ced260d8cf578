/**
 * trackTurns: what lets a stopping `skilltree serve` abort its running turns and wait until each has
 * committed and given its lease back, before the store closes.
 */
import {
  Agent,
  createSessions,
  type Message,
  type Model,
  memoryStore,
  type SessionEvent,
  Skill,
  Tool,
} from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { trackTurns } from '../src/commands/serve/stop.js';

let started = 0;

function Desk() {
  return (
    <Tool
      name="hold"
      description="Holds until aborted"
      run={(_input, ctx) =>
        new Promise<string>((_resolve, reject) => {
          started++;
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true });
        })
      }
    />
  );
}

const agent = (
  <Agent>
    <Skill name="desk" description="d">
      <Desk />
    </Skill>
  </Agent>
);

const model: Model = {
  async generate(req) {
    const last = req.messages.at(-1) as Message;
    if (last.role === 'user' && last.content === 'hold') {
      return { text: '', toolCalls: [{ id: 'r', name: 'read_skill', input: { name: 'desk' } }] };
    }
    if (last.role === 'tool' && last.name === 'read_skill') {
      return { text: '', toolCalls: [{ id: 'h', name: 'hold', input: {} }] };
    }
    return { text: 'ok', toolCalls: [] };
  },
};

async function drain(events: AsyncIterable<SessionEvent>): Promise<unknown> {
  try {
    for await (const _event of events);
    return null;
  } catch (error) {
    return error;
  }
}

describe('trackTurns', () => {
  it('abortAll stops a running turn and resolves only once its interrupted call is committed and its lease is free', async () => {
    const store = memoryStore();
    const turns = trackTurns(createSessions(agent, { store, model }));
    const before = started;
    const turn = drain(turns.sessions.stream('c1', 'hold'));
    while (started === before) await new Promise((resolve) => setTimeout(resolve, 5));
    await turns.abortAll(new DOMException('The server is stopping.', 'AbortError'));
    // Already written when abortAll resolves: the store can close now.
    const messages = await store.messages('c1', 0, 100);
    expect(messages.at(-1)).toMatchObject({
      role: 'tool',
      name: 'hold',
      isError: true,
      content: 'Tool "hold" failed: The server is stopping.',
    });
    expect(await store.acquire('c1', 'probe', 1_000)).toBe(true);
    expect(((await turn) as Error).name).toBe('AbortError');
    await turns.sessions.close();
  });

  it('a turn that starts once the stop began is stopped before the model is called', async () => {
    let calls = 0;
    const counting: Model = {
      generate(req, opts) {
        calls++;
        return model.generate(req, opts);
      },
    };
    const turns = trackTurns(createSessions(agent, { model: counting }));
    await turns.abortAll(new DOMException('The server is stopping.', 'AbortError'));
    const error = (await drain(turns.sessions.stream('c2', 'hi'))) as Error;
    expect(error.name).toBe('AbortError');
    expect(calls).toBe(0);
    await turns.sessions.close();
  });

  it('an idle stop resolves at once, and the tracked sessions serve as the sessions do', async () => {
    const turns = trackTurns(createSessions(agent, { model }));
    const events: string[] = [];
    for await (const event of turns.sessions.stream('c3', 'hi')) events.push(event.type);
    expect(events.at(-1)).toBe('finish');
    expect(await turns.sessions.get('c3')).toMatchObject({ transcriptLength: 2 });
    await turns.abortAll(new Error('stop'));
    await turns.sessions.close();
  });
});
