/**
 * What a page sees of a turn that runs long or whose process stopped, from another worker on the
 * same store: a turn whose tool runs longer than twice the lease still reads as running (its lease
 * renewals say it is alive), so a reload resumes it whole; a call whose process stopped mid-tool
 * reads as interrupted in `GET /chat/:id` and in a resumed stream once no turn runs, never pending.
 * (packages/store/test/durable-chat.test.ts plays the same with real processes on every store.)
 */
import { createSessions, memoryStore } from '@skilltree/core';
import { INTERRUPTED_RESULT } from '@skilltree/core/provider';
import { describe, expect, it } from 'vitest';
import { type SkilltreeUIMessage, toUIMessages } from '../src/index.js';
import { apiPath } from './helpers.js';
import { getAs, usersHandler } from './served.js';
import { reloadWhileSlow, slowToolAgent, slowToolModel } from './slow-tool.js';
import { stoppable } from './stoppable.js';

const model = slowToolModel;

const toolParts = (messages: SkilltreeUIMessage[]) =>
  messages.flatMap((m) => m.parts).filter((p) => p.type === 'dynamic-tool') as { state: string; errorText?: string }[];

/** Resolves once `ready` holds, checking as the event loop turns. */
async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await ready())) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('a long turn and a crashed one, seen from another worker', () => {
  it('a turn whose tool runs longer than twice the lease still reads as running: GET /chat/:id/stream resumes it whole', async () => {
    // Renewals come every third of the lease: a lease of a second leaves a busy machine room to
    // renew on time (the rule holds for any lease; a short one only tests the scheduler).
    const leaseTtl = 1000;
    const { agent, inTool, release } = slowToolAgent();
    const store = memoryStore();
    const [running, other] = [0, 1].map(() => createSessions(agent, { store, model, leaseTtl }));
    const handler = usersHandler(other);
    const turn = running.send('c1', 'go', { owner: 'alice' });
    await inTool;
    // The tool's call was the last commit; the turn writes nothing more while the tool runs.
    const since = Date.now();
    await until(() => Date.now() - since > 3 * leaseTtl);
    expect((await other.get('c1', { owner: 'alice' }))?.running).toEqual({ from: 0 });
    const text = await reloadWhileSlow(handler, release);
    expect(text).toContain('"output":"slow done"');
    expect((await turn).text).toBe('Answer: slow done');
    await Promise.all([running.close(), other.close()]);
  });

  it('a call whose process stopped mid-tool reads as interrupted in a resumed stream and in GET /chat/:id once no turn runs, never pending', async () => {
    const leaseTtl = 100;
    const { agent, inTool, release } = slowToolAgent();
    const store = memoryStore();
    const dying = stoppable(store);
    const crashed = createSessions(agent, { store: dying, model, leaseTtl });
    const other = createSessions(agent, { store, model, leaseTtl });
    const handler = usersHandler(other);
    const turn = crashed.send('c1', 'go', { owner: 'alice' }).catch((error: Error) => error);
    await inTool;
    dying.stop();
    // A page reloaded right after the crash follows the turn until it reads as over.
    const resumed = await getAs(handler, apiPath('chat-stream', 'c1'));
    expect(resumed.status).toBe(200);
    const text = await resumed.text();
    expect(text).toContain('"type":"tool-input-available"');
    const { incarnation } = (await other.get('c1', { owner: 'alice' })) ?? {};
    expect(text).toContain(
      `"type":"tool-output-error","toolCallId":"call_${incarnation}_1","errorText":${JSON.stringify(INTERRUPTED_RESULT)}`,
    );
    await until(async () => (await other.get('c1', { owner: 'alice' }))?.running === null);
    const history = (await (await getAs(handler, apiPath('chat-id', 'c1'))).json()) as SkilltreeUIMessage[];
    expect(toolParts(history)).toEqual([
      expect.objectContaining({ state: 'output-error', errorText: INTERRUPTED_RESULT }),
    ]);
    // The stopped process's tool ends at last: nothing of it lands.
    release('too late');
    expect(await turn).toBeInstanceOf(Error);
    // The next message records the same result, as the history showed it.
    expect((await other.send('c1', 'again', { owner: 'alice' })).text).toBe('Answer: too late');
    const after = (await (await getAs(handler, apiPath('chat-id', 'c1'))).json()) as SkilltreeUIMessage[];
    expect(toolParts(after)[0]).toEqual(history.flatMap((m) => m.parts).find((p) => p.type === 'dynamic-tool'));
    await Promise.all([crashed.close(), other.close()]);
  });
});

describe('toUIMessages: calls with no result', () => {
  const messages = [
    { role: 'user' as const, content: [{ type: 'text' as const, text: 'go' }] },
    {
      role: 'assistant' as const,
      content: [],
      toolCalls: [
        { id: 'call_1', name: 'slow', input: {} },
        { id: 'call_2', name: 'pick_photo', input: {} },
      ],
    },
  ];
  const waiting = [
    {
      toolCallId: 'call_2',
      name: 'pick_photo',
      input: {},
      for: 'client' as const,
      skill: null,
      status: 'waiting' as const,
    },
  ];

  it('pending while a turn runs; interrupted when none runs, except a call that waits for the client', () => {
    expect(toolParts(toUIMessages(messages, { waiting })).map((p) => p.state)).toEqual([
      'input-available',
      'input-available',
    ]);
    expect(toolParts(toUIMessages(messages, { waiting, idle: true }))).toEqual([
      expect.objectContaining({ state: 'output-error', errorText: INTERRUPTED_RESULT }),
      expect.objectContaining({ state: 'input-available' }),
    ]);
  });
});
