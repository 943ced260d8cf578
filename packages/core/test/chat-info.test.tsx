/**
 * Components and tools can learn the chat they serve: `useChatInfo()` and `ctx.chat` give the chat
 * id and owner exactly as the caller passed them to `createSessions` (never the store's key), in
 * a new chat and in one restored in another process; the agent factory gets them too. A session
 * made with `createSession` serves no chat: both are null.
 */
import { describe, expect, test } from 'vitest';
import {
  Agent,
  type ChatInfo,
  createSession,
  createSessions,
  memoryStore,
  scriptedModel,
  Text,
  Tool,
  useChatInfo,
} from '../src/index.js';
import { textOf } from '../src/parts/message-parts.js';
import { chatKey } from '../src/sessions/key.js';

function Whoami() {
  const chat = useChatInfo();
  return <Text>Serving: {chat ? JSON.stringify(chat) : 'no chat'}</Text>;
}

function ChatAgent({ greeting = 'Hello' }: { greeting?: string }) {
  return (
    <Agent>
      <Text>{greeting}</Text>
      <Whoami />
      <Tool name="whoami" description="Says which chat this is" run={(_input, ctx) => ({ chat: ctx.chat })} />
    </Agent>
  );
}

/** A model that calls `whoami` and then says what it returned. */
const asks = () =>
  scriptedModel([
    { toolCalls: [{ id: 'w', name: 'whoami', input: {} }] },
    (request) => ({ text: `tool said ${textOf(request.messages.at(-1)!).split('\n')[0]}` }),
  ]);

const contextOf = (request: { context: string }) => /Serving: (.*)/.exec(request.context)?.[1];

describe('components and tools can learn the chat id and the owner', () => {
  test('createSessions: ctx.chat and useChatInfo() give the id and owner as passed, never the store key', async () => {
    const store = memoryStore();
    const sessions = createSessions(<ChatAgent />, { store, model: () => asks() });
    const id = 'Order #42 / Ü';
    const owner = 'ann@example.com';
    const seen: string[] = [];
    for await (const event of sessions.stream(id, 'who am I talking to?', { owner })) {
      if (event.type === 'request') seen.push(contextOf(event.request) ?? '');
      if (event.type === 'finish') seen.push(event.turn.text);
    }
    const expected: ChatInfo = { id, owner };
    expect(seen[0]).toBe(JSON.stringify(expected));
    expect(seen.at(-1)).toBe(`tool said ${JSON.stringify({ chat: expected })}`);
    // The store keeps the chat under another key: that is not what the agent sees.
    const key = await chatKey(id, owner);
    expect(key).not.toBe(id);
    expect(seen.join('\n')).not.toContain(key);
    await sessions.close();
  });

  test('a chat restored in another process knows its id and owner; a chat without an owner has owner undefined', async () => {
    const store = memoryStore();
    const first = createSessions(<ChatAgent />, { store, model: () => scriptedModel([{ text: 'hi' }]) });
    await first.send('chat-7', 'hello', { owner: 'bob' });
    await first.send('chat-8', 'hello');
    const second = createSessions(<ChatAgent />, { store, model: () => asks() });
    const owned = await second.send('chat-7', 'again', { owner: 'bob' });
    expect(owned.text).toBe(`tool said ${JSON.stringify({ chat: { id: 'chat-7', owner: 'bob' } })}`);
    const unowned = await second.send('chat-8', 'again');
    expect(unowned.text).toBe(`tool said ${JSON.stringify({ chat: { id: 'chat-8' } })}`);
    await first.close();
    await second.close();
  });

  test('the agent factory of createSessions((id, owner) => …) gets the chat id and the owner', async () => {
    const calls: [string, string | undefined][] = [];
    const sessions = createSessions(
      (id, owner) => {
        calls.push([id, owner]);
        return <ChatAgent greeting={`Hello ${owner ?? 'guest'}`} />;
      },
      { model: () => scriptedModel([(request) => ({ text: request.context.includes('Hello cy') ? 'yes' : 'no' })]) },
    );
    expect((await sessions.send('c1', 'hi', { owner: 'cy' })).text).toBe('yes');
    expect(calls).toEqual([['c1', 'cy']]);
    await sessions.close();
  });

  test('createSession serves no chat: ctx.chat and useChatInfo() are null', async () => {
    const session = createSession(<ChatAgent />, { model: asks() });
    expect(contextOf(session.request())).toBe('no chat');
    expect((await session.send('who?')).text).toBe(`tool said ${JSON.stringify({ chat: null })}`);
  });

  test('the chat a component sees cannot be changed from inside the tree', async () => {
    let seen: ChatInfo | null = null;
    function Grab() {
      seen = useChatInfo();
      return null;
    }
    const sessions = createSessions(
      <Agent>
        <Grab />
      </Agent>,
      { model: () => scriptedModel([{ text: 'ok' }]) },
    );
    await sessions.send('c1', 'hi', { owner: 'dee' });
    expect(Object.isFrozen(seen)).toBe(true);
    expect(() => {
      (seen as { owner: string }).owner = 'mallory';
    }).toThrow(TypeError);
    await sessions.close();
  });
});
