/**
 * `sessions.subagentRuns(id, { owner })` takes ids and owners from requests, so it is tested the way
 * an attacker would call it: another owner's chat id, no owner for an owned chat, path tricks
 * (`../`), NUL and other control characters, the raw store key, 10 KB ids and prototype keys. A
 * chat's runs reach only its owner; anything ill-formed is an error naming the rule (and quoting at
 * most a few dozen characters of what was given), never another chat's data.
 */
import { describe, expect, it } from 'vitest';
import { createSessions, memoryStore, scriptedModel } from '../src/index.js';
import { ownerKey } from '../src/provider.js';
import { Researcher } from './researcher.js';

const model = () =>
  scriptedModel([{ toolCalls: [{ name: 'researcher', input: { task: 'secret of alice' } }] }, { text: 'done' }], {
    subagents: { researcher: [{ text: 'alice found' }] },
  });

async function aliceHasRuns() {
  const sessions = createSessions(<Researcher />, { store: memoryStore(), model });
  await sessions.send('c1', 'go', { owner: 'alice' });
  expect(await sessions.subagentRuns('c1', { owner: 'alice' })).toHaveLength(1);
  return sessions;
}

describe("a chat's subagent runs reach only its owner", () => {
  it("another owner, or no owner, asking for alice's chat id gets no runs", async () => {
    const sessions = await aliceHasRuns();
    expect(await sessions.subagentRuns('c1', { owner: 'bob' })).toEqual([]);
    expect(await sessions.subagentRuns('c1')).toEqual([]);
    expect(await sessions.subagentRuns('c1', { owner: 'Alice' })).toEqual([]);
    expect(await sessions.subagentRuns('c1', { owner: 'alice ' })).toEqual([]);
    expect(await sessions.subagentRuns('c1', { owner: '' })).toEqual([]);
    await sessions.close();
  });

  it.each(['../c1', '..%2Fc1', 'c1/..', './c1', '/c1', 'c1 ', 'C1', '__proto__', 'constructor', 'hasOwnProperty'])(
    'the id %j names no chat of alice: no runs',
    async (id) => {
      const sessions = await aliceHasRuns();
      expect(await sessions.subagentRuns(id, { owner: 'alice' })).toEqual([]);
      expect(await sessions.subagentRuns(id, { owner: 'bob' })).toEqual([]);
      await sessions.close();
    },
  );

  it("the raw store key of alice's chat, given as an id, is refused: ids cannot hold the separator", async () => {
    const sessions = await aliceHasRuns();
    const raw = `${await ownerKey('alice')}\u001fc1`;
    await expect(sessions.subagentRuns(raw)).rejects.toThrow(/^Invalid session id .*no control characters/);
    await expect(sessions.subagentRuns(raw, { owner: 'bob' })).rejects.toThrow(/^Invalid session id/);
    await sessions.close();
  });

  it.each([
    ['NUL', 'c1\u0000'],
    ['a line break', 'c1\n'],
    ['a format character', 'c1\u202e'],
    ['a lone surrogate', 'c1\ud800'],
    ['10 KB', 'c'.repeat(10 * 1024)],
    ['empty', ''],
  ])('an id with %s is refused with the rule, quoting at most a little of it', async (_, id) => {
    const sessions = await aliceHasRuns();
    const refusal = await sessions.subagentRuns(id, { owner: 'alice' }).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(refusal).toMatch(/^Invalid session id .*use 1 to 200 printable characters/);
    expect((refusal as string).length).toBeLessThan(400);
    await sessions.close();
  });

  it.each([
    ['NUL', 'alice\u0000'],
    ['a lone surrogate', 'alice\ud800'],
    ['a number', 42],
    ['an object that says it is alice', { toString: () => 'alice' }],
    ['an object that cannot be printed', Object.create(null)],
  ])('an owner with %s is refused with the rule, never read as alice', async (_, owner) => {
    const sessions = await aliceHasRuns();
    await expect(sessions.subagentRuns('c1', { owner: owner as string })).rejects.toThrow(/^Invalid owner/);
    await sessions.close();
  });

  it('a non-string id is refused without echoing it (a deep object cannot overflow the message)', async () => {
    const sessions = await aliceHasRuns();
    let deep: unknown = 'c1';
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    await expect(sessions.subagentRuns(deep as string)).rejects.toThrow(/^Invalid session id \(an object\)/);
    await sessions.close();
  });
});
