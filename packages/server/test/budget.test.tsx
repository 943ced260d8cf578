/**
 * Budgets over HTTP: a turn refused before it starts is a 429 `budget_exceeded` with the budget in
 * the JSON error (never a 500); a turn stopped mid-way ends its stream with an error part that says
 * why; the handler's budget can differ per user.
 */
import type { Model } from '@skilltree/core';
import { afterEach, describe, expect, it } from 'vitest';
import { client, startServer, type TestServer, transcriptIsValid, userMessage } from './helpers.js';

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** A model that reports 1,000 input tokens per call. */
const heavy: Model = {
  name: 'heavy',
  generate: async () => ({ text: 'ok', toolCalls: [], usage: { inputTokens: 1_000, outputTokens: 5 } }),
};

function post(url: string, user: string, id = 'c1') {
  return fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user },
    body: JSON.stringify({ id, messages: [userMessage('hello')], trigger: 'submit-message' }),
  });
}

describe('budgets over HTTP', () => {
  it('a session whose budget is used up is refused with 429 budget_exceeded before the stream starts', async () => {
    server = await startServer({ sessionsOptions: { model: heavy, budget: { perSession: { tokens: 1_000 } } } });
    const first = await post(server.url, 'alice');
    expect(first.status).toBe(200);
    await first.text();
    const refused = await post(server.url, 'alice');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await refused.json()).toEqual({
      error: {
        code: 'budget_exceeded',
        message: expect.stringMatching(
          /^Budget exceeded: This session has spent 1,005 tokens of its limit of 1,000 tokens/,
        ),
        budget: { scope: 'session', unit: 'tokens', limit: 1_000, spent: 1_005 },
      },
    });
    // Nothing of the refused turn was recorded.
    expect(await server.sessions.get('c1', { owner: 'alice' })).toMatchObject({ transcriptLength: 2 });
  });

  it("an owner whose period's budget is spent is refused with 429, the owner's budget and Retry-After until the period ends", async () => {
    server = await startServer({
      sessionsOptions: { model: heavy, budget: { perOwner: { tokens: 1_000, period: 'day' } } },
    });
    await (await post(server.url, 'alice', 'a1')).text();
    // Another chat of the same user: the owner's budget is spent, whatever the chat.
    const refused = await post(server.url, 'alice', 'a2');
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; budget: Record<string, unknown> } };
    const day = new Date().toISOString().slice(0, 10);
    expect(body.error).toMatchObject({
      code: 'budget_exceeded',
      budget: { scope: 'owner', unit: 'tokens', limit: 1_000, spent: 1_005, period: day },
    });
    const resetsAt = Date.parse(String(body.error.budget.resetsAt));
    expect(resetsAt).toBe(Date.parse(`${day}T00:00:00Z`) + 86_400_000);
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(86_400);
    // Another user is not affected.
    expect((await post(server.url, 'bob', 'b1')).status).toBe(200);
  });

  it('a turn stopped mid-way ends its stream with an error part saying why, and the transcript stays valid', async () => {
    server = await startServer({ budget: { perTurn: { tokens: 1 } } });
    const { chunks } = await client(server.url).send('c1', 'note milk');
    expect(chunks.at(-1)).toEqual({
      type: 'error',
      errorText: expect.stringMatching(
        /^Budget exceeded: This turn has spent 0 tokens of its limit of 1 token \(budget\.perTurn\.tokens\)/,
      ),
    });
    const messages = await server.sessions.messages('c1', { owner: 'alice' });
    expect(messages.map((m) => m.role)).toEqual(['user']);
    expect(transcriptIsValid(messages)).toBe(true);
  });

  it('the handler’s budget can be a function of the user: one user is limited, another is not', async () => {
    server = await startServer({
      budget: (user) => (user === 'free' ? { perTurn: { tokens: 1 } } : undefined),
    });
    const free = await client(server.url, 'free').send('c-free', 'hello');
    expect(free.chunks.at(-1)).toMatchObject({ type: 'error' });
    const paid = await client(server.url, 'paid').send('c-paid', 'hello');
    expect(paid.errors).toEqual([]);
    expect(paid.message.parts.find((p) => p.type === 'text')).toMatchObject({ text: 'echo: hello' });
  });
});
