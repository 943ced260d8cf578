/**
 * Budgets over HTTP: a turn refused before it starts is a 429 `budget_exceeded` with the budget in
 * the JSON error (never a 500); a turn stopped mid-way ends its stream with an error part that says
 * why; the handler's budget can differ per user. What the end user reads says the limit was reached
 * and when it resets, never an option name (those go to the log); `resetsAt` is epoch milliseconds.
 * An aborted turn is charged what it consumed.
 */
import { BudgetExceededError, createSession, type Model } from '@skilltree/core';
import { estimateTokens, ownerKey, spentSince } from '@skilltree/core/provider';
import { afterEach, describe, expect, it } from 'vitest';
import {
  apiPath,
  client,
  NotesAgent,
  RAMBLE,
  startServer,
  type TestServer,
  transcriptIsValid,
  userMessage,
} from './helpers.js';

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

function post(url: string, user: string, id = 'c1', text = 'hello', signal?: AbortSignal) {
  return fetch(`${url}${apiPath('chat')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user': user },
    body: JSON.stringify({ id, messages: [userMessage(text)], trigger: 'submit-message' }),
    signal,
  });
}

/** No option name (`budget.perTurn.tokens`, `perOwner`…) and no advice to raise one reaches the end user. */
function namesNoOption(text: string) {
  expect(text).not.toMatch(/budget\.|perTurn|perSession|perOwner|Raise/);
}

/** The estimated input of the first request of a turn saying `text` to the notes agent. */
async function firstRequestTokens(text: string): Promise<number> {
  const error = await createSession(<NotesAgent />, { budget: { perTurn: { tokens: 0 } } })
    .send(text)
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BudgetExceededError);
  return (error as BudgetExceededError).next;
}

describe('budgets over HTTP', () => {
  it('a session whose budget is used up is refused with 429 budget_exceeded before the stream starts; the user reads that the limit was reached, the log gets the option', async () => {
    server = await startServer({ sessionsOptions: { model: heavy, budget: { perSession: { tokens: 1_000 } } } });
    const first = await post(server.url, 'alice');
    expect(first.status).toBe(200);
    await first.text();
    const refused = await post(server.url, 'alice');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await refused.json();
    expect(body).toEqual({
      error: {
        code: 'budget_exceeded',
        message: 'This chat has reached its usage limit. Start a new chat to go on.',
        budget: { scope: 'session', unit: 'tokens', limit: 1_000, spent: 1_005 },
      },
    });
    namesNoOption(JSON.stringify(body));
    expect(server.logs.join('\n')).toMatch(/refused: Budget exceeded: .*budget\.perSession\.tokens/);
    // Nothing of the refused turn was recorded.
    expect(await server.sessions.get('c1', { owner: 'alice' })).toMatchObject({ transcriptLength: 2 });
  });

  it("an owner whose period's budget is spent is refused with 429: the user reads when it resets, resetsAt is epoch ms, Retry-After until then", async () => {
    server = await startServer({
      sessionsOptions: { model: heavy, budget: { perOwner: { tokens: 1_000, period: 'day' } } },
    });
    await (await post(server.url, 'alice', 'a1')).text();
    // Another chat of the same user: the owner's budget is spent, whatever the chat.
    const refused = await post(server.url, 'alice', 'a2');
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as {
      error: { code: string; message: string; budget: Record<string, unknown> };
    };
    const day = new Date().toISOString().slice(0, 10);
    const resetsAt = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
    expect(body.error).toEqual({
      code: 'budget_exceeded',
      message: `You have reached your usage limit. It resets at ${new Date(resetsAt).toISOString().slice(0, 10)} 00:00 UTC.`,
      budget: { scope: 'owner', unit: 'tokens', limit: 1_000, spent: 1_005, period: day, resetsAt },
    });
    namesNoOption(JSON.stringify(body));
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(86_400);
    expect(server.logs.join('\n')).toMatch(/budget\.perOwner\.tokens/);
    // Another user is not affected.
    expect((await post(server.url, 'bob', 'b1')).status).toBe(200);
  });

  it('a message refused at its first model call is a 429 and leaves no orphan user message', async () => {
    server = await startServer({ budget: { perTurn: { tokens: 1 } } });
    const refused = await post(server.url, 'alice', 'c1', 'note milk');
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { message: string } };
    expect(body.error.message).toBe(
      'This reply reached its usage limit. The limit starts again with your next message.',
    );
    expect(await server.sessions.get('c1', { owner: 'alice' })).toBeNull();
    expect(await server.sessions.messages('c1', { owner: 'alice' })).toEqual([]);
  });

  it('a turn stopped mid-way ends its stream with an error part saying the limit was reached, the log gets the option, and the transcript stays valid', async () => {
    // Room for the first call of `note milk` (read the skill), not for the second.
    const first = await firstRequestTokens('note milk');
    server = await startServer({ budget: { perTurn: { tokens: first + 5 } } });
    const { chunks } = await client(server.url).send('c1', 'note milk');
    expect(chunks.at(-1)).toEqual({
      type: 'error',
      errorText: 'This reply reached its usage limit. The limit starts again with your next message.',
    });
    expect(server.logs.join('\n')).toMatch(/stopped: Budget exceeded: This turn .*budget\.perTurn\.tokens/);
    const messages = await server.sessions.messages('c1', { owner: 'alice' });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(transcriptIsValid(messages)).toBe(true);
  });

  it("an onError of the app's own decides what the stream shows for a budget stop too", async () => {
    const first = await firstRequestTokens('note milk');
    server = await startServer({
      budget: { perTurn: { tokens: first + 5 } },
      onError: (error) => `custom: ${(error as Error).name}`,
    });
    const { chunks } = await client(server.url).send('c1', 'note milk');
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'custom: BudgetExceededError' });
  });

  it('a turn stopped mid-stream (POST /chat/:id/stop) is charged what it consumed: its input and what streamed, as an estimate, on the chat and the owner', async () => {
    const since = Date.now();
    server = await startServer({ sessionsOptions: { budget: { perOwner: { tokens: 1_000_000, period: 'day' } } } });
    const controller = new AbortController();
    const response = await post(server.url, 'alice', 'c1', 'ramble', controller.signal);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    // Read until the words the model streamed arrive, then go away.
    while (!seen.includes('"text-delta"')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += decoder.decode(value, { stream: true });
    }
    await client(server.url).stop('c1');
    controller.abort();
    await reader.cancel().catch(() => {});
    // The next message of this chat waits for the stopped turn to commit and give its lease up.
    await (await post(server.url, 'alice', 'c1', 'hello')).text();
    const usage = (await server.sessions.get('c1', { owner: 'alice' }))?.usage;
    const input = await firstRequestTokens('ramble');
    // The aborted call (estimated), then `hello`, which the rule model reports as 10 in and 5 out.
    expect(usage).toEqual({ inputTokens: input + 10, outputTokens: estimateTokens(RAMBLE) + 5, estimated: true });
    const spent = await spentSince(server.sessions.store, await ownerKey('alice'), since);
    expect(spent.tokens).toBe(input + estimateTokens(RAMBLE) + 15);
  });

  it('the handler’s budget can be a function of the user: one user is limited, another is not', async () => {
    server = await startServer({
      budget: (user) => (user === 'free' ? { perTurn: { tokens: 1 } } : undefined),
    });
    const free = await post(server.url, 'free', 'c-free');
    expect(free.status).toBe(429);
    const paid = await client(server.url, 'paid').send('c-paid', 'hello');
    expect(paid.errors).toEqual([]);
    expect(paid.message.parts.find((p) => p.type === 'text')).toMatchObject({ text: 'echo: hello' });
  });
});
