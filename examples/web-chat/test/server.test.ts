/**
 * The example server without a browser: the placeholder login and what it lets through.
 */
import { memoryStore } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/server/app.js';
import { COOKIE, sign, verify } from '../src/server/auth.js';
import { demoModel } from '../src/server/demo-model.js';

const secret = 'test-secret';
const { app } = createApp({ store: memoryStore(), model: demoModel({ delayMs: 0 }), secret });

async function login(name: string): Promise<string> {
  const response = await app.request('/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(200);
  const cookie = response.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(/HttpOnly/);
  expect(cookie).toMatch(/SameSite=Lax/);
  return cookie.split(';')[0];
}

describe('the placeholder login', () => {
  it('signs the user name into an HttpOnly cookie that /me and the chat API accept', async () => {
    const cookie = await login('alice');
    expect(await (await app.request('/me', { headers: { cookie } })).json()).toEqual({ name: 'alice' });
    const chat = await app.request('/api/chat', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'c1', message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] } }),
    });
    expect(chat.status).toBe(200);
    expect(chat.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(await chat.text()).toContain('"type":"finish"');
  });

  it('a forged or missing cookie is nobody: 401 from the chat API', async () => {
    for (const cookie of ['', `${COOKIE}=alice.forged`, `${COOKIE}=${sign('alice', 'another-secret')}`]) {
      const response = await app.request('/api/chat/c1', { headers: cookie ? { cookie } : {} });
      expect(response.status, cookie).toBe(401);
    }
    expect(verify(sign('bob', secret), secret)).toBe('bob');
    expect(verify(`${sign('bob', secret)}x`, secret)).toBeNull();
  });

  it('refuses names outside 1 to 40 letters, digits, _ and -, and bodies that are not JSON', async () => {
    for (const name of ['', 'a b', 'x'.repeat(41), '../admin', 'a.b']) {
      const response = await app.request('/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      expect(response.status, name).toBe(400);
    }
    const form = await app.request('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=mallory',
    });
    expect(form.status).toBe(415);
  });
});

describe('reasoning', () => {
  it("streams the demo model's reasoning as reasoning parts, and GET /api/chat/:id returns it before the call it led to", async () => {
    const cookie = await login('dana');
    const chat = await app.request('/api/chat', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'r1',
        message: { role: 'user', parts: [{ type: 'text', text: 'refund order A-1001' }] },
      }),
    });
    const stream = await chat.text();
    expect(stream).toContain('"type":"reasoning-start"');
    expect(stream).toContain('"type":"reasoning-delta"');
    expect(stream).toContain('"type":"reasoning-end"');
    const history = (await (await app.request('/api/chat/r1', { headers: { cookie } })).json()) as {
      role: string;
      parts: { type: string; text?: string }[];
    }[];
    const reply = history.find((m) => m.role === 'assistant')!;
    const types = reply.parts.map((part) => part.type);
    expect(types[types.indexOf('reasoning') + 1]).toBe('dynamic-tool');
    // Its readable text only: nothing a provider would sign or encrypt reaches the browser.
    expect(reply.parts.find((part) => part.type === 'reasoning')).toEqual({
      type: 'reasoning',
      state: 'done',
      text: "The customer asks for a refund of order A-1001. Refunds wait for a person's approval.",
    });
    // The refund it led to waits for approval.
    expect(reply.parts.at(-1)).toMatchObject({ type: 'dynamic-tool', toolName: 'refund', state: 'approval-requested' });
  });
});
