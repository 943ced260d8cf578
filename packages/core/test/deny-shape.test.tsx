/**
 * One shape for `deny` (issue 32, rough edges): `session.deny(callId, reason)` and
 * `sessions.deny(id, callId, reason)` take the reason as a string or inside the options
 * (`{ reason }`), and a reason of the wrong type is a TypeError, never dropped silently.
 */
import { describe, expect, test } from 'vitest';
import { createSession, createSessions, memoryStore, scriptedModel } from '../src/index.js';
import { OrderRefunds } from './refunds.js';

/** The run never happens here (every call is denied): what it records goes nowhere. */
const Refunds = () => <OrderRefunds ran={[]} />;

const script = () =>
  scriptedModel([{ toolCalls: [{ id: 'r1', name: 'refund', input: { order: 'A-1' } }] }, { text: 'Not refunded.' }]);

/** What the model read as the denied call's result. */
const denial = (messages: readonly { role: string; content: unknown }[]) =>
  JSON.stringify(messages.filter((m) => m.role === 'tool').at(-1)?.content);

describe('deny has one shape on Session and Sessions', () => {
  test.each([
    ['a string', (deny: (reason: unknown) => Promise<unknown>) => deny('over the limit')],
    ['{ reason }', (deny: (reason: unknown) => Promise<unknown>) => deny({ reason: 'over the limit' })],
  ])('session.deny takes the reason as %s, and the model reads it', async (_shape, call) => {
    const session = createSession(<Refunds />, { model: script() });
    await session.send('refund A-1');
    await call((reason) => session.deny('r1', reason as string));
    expect(denial(session.transcript)).toContain('over the limit');
    session.dispose();
  });

  test.each([
    ['a string', (deny: (reason: unknown) => Promise<unknown>) => deny('over the limit')],
    ['{ reason }', (deny: (reason: unknown) => Promise<unknown>) => deny({ reason: 'over the limit' })],
  ])('sessions.deny takes the reason as %s, and the model reads it', async (_shape, call) => {
    const sessions = createSessions(<Refunds />, { store: memoryStore(), model: script() });
    const waited = await sessions.send('c1', 'refund A-1');
    const id = waited.waiting?.[0]?.toolCallId as string;
    await call((reason) => sessions.deny('c1', id, reason as string));
    const messages = await sessions.messages('c1');
    expect(denial(messages)).toContain('over the limit');
    await sessions.close();
  });

  test('a reason that is not a string is a TypeError naming it, on both, and the call still waits', async () => {
    const session = createSession(<Refunds />, { model: script() });
    await session.send('refund A-1');
    await expect(session.deny('r1', 42 as never)).rejects.toThrow(/deny: the reason must be a string/);
    await expect(session.deny('r1', { reason: 7 } as never)).rejects.toThrow(/deny: reason must be a string/);
    await expect(session.deny('r1', 'twice', { reason: 'again' } as never)).rejects.toThrow(/pass the reason once/);
    expect(session.waiting.map((w) => w.toolCallId)).toEqual(['r1']);
    session.dispose();

    const sessions = createSessions(<Refunds />, { store: memoryStore(), model: script() });
    const waited = await sessions.send('c1', 'refund A-1');
    const id = waited.waiting?.[0]?.toolCallId as string;
    await expect(sessions.deny('c1', id, 42 as never)).rejects.toThrow(/deny: the reason must be a string/);
    expect((await sessions.get('c1'))?.waiting.map((w) => w.toolCallId)).toEqual([id]);
    await sessions.close();
  });
});
