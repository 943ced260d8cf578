/**
 * End to end in Debian's chromium: the built front end (useChat) and the Hono server with
 * `@skilltree/server`. A user sends a message and sees the reply stream in with the skill load; a
 * reload restores the conversation from the store; a second user cannot open the first one's chat.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { type Sessions, textOf } from '@skilltree/core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/server/app.js';
import { demoModel } from '../src/server/demo-model.js';
import { openStore } from '../src/server/store.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let url: string;
let browser: Browser;
let sessions: Sessions;
let server: ReturnType<typeof serve>;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium.`);
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
  const store = await openStore(':memory:');
  // The demo model streams one word every 80 ms, so the test can see the reply arrive.
  const created = createApp({ store, model: demoModel({ delayMs: 80 }), staticDir: join(root, 'dist') });
  sessions = created.sessions;
  await new Promise<void>((resolve) => {
    server = serve({ fetch: created.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  await sessions?.close();
});

/** A fresh browser context (its own cookies) signed in as `name`, on a new chat. */
async function signIn(name: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(`${name}: ${error.message}`));
  await page.goto(url);
  await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(`Signed in as ${name}`).waitFor();
  return page;
}

describe('web chat in a browser', () => {
  let aliceChat: string;

  it('streams the reply with the tool call and the skill load inline, and a reload restores the chat', async () => {
    const page = await signIn('alice');

    // Record every text the reply shows while it arrives.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const texts = document.querySelectorAll('[data-role=assistant] .text');
        const last = texts[texts.length - 1]?.textContent;
        if (last && seen.at(-1) !== last) seen.push(last);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByLabel('Message').fill('remember the milk and the eggs');
    await page.getByRole('button', { name: 'Send' }).click();
    const conversation = page.getByLabel('Conversation');
    await page.locator('main[data-status=streaming]').waitFor();
    await conversation.getByText('Noted: the milk and the eggs.').waitFor();
    await page.locator('main[data-status=ready]').waitFor();
    // The first message put the chat in the URL.
    aliceChat = new URL(page.url()).searchParams.get('chat')!;
    expect(aliceChat).toMatch(/^[0-9a-f]{24}$/);
    // The reply streamed in: the page showed it growing, word by word.
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.at(-1)).toBe('Noted: the milk and the eggs.');
    expect(seen.every((text) => 'Noted: the milk and the eggs.'.startsWith(text))).toBe(true);

    const agent = conversation.locator('[data-role=assistant]');
    await expect(agent.locator('[data-skill-loaded=notes]').count()).resolves.toBe(1);
    await expect(agent.locator('[data-tool=read_skill]').getAttribute('data-state')).resolves.toBe('output-available');
    await expect(agent.locator('[data-tool=add_note]').getAttribute('data-state')).resolves.toBe('output-available');
    await expect(agent.locator('.changed').last().textContent()).resolves.toContain(
      'contextChanged notes added: Notes: the milk and the eggs',
    );

    // A second turn, then a reload: both come back from the store.
    await page.getByLabel('Message').fill('convert 5 km to mi');
    await page.getByRole('button', { name: 'Send' }).click();
    await conversation.getByText('5 km = 3.11 mi.').waitFor();
    await page.locator('main[data-status=ready]').waitFor();

    await page.reload();
    await conversation.getByText('Noted: the milk and the eggs.').waitFor();
    await expect(conversation.getByText('remember the milk and the eggs').count()).resolves.toBe(1);
    await expect(conversation.getByText('5 km = 3.11 mi.').count()).resolves.toBe(1);
    await expect(
      conversation.locator('[data-role]').evaluateAll((els) => els.map((e) => e.dataset.role)),
    ).resolves.toEqual(['user', 'assistant', 'user', 'assistant']);
    await expect(conversation.locator('[data-skill-loaded]').count()).resolves.toBe(2);
    await expect(conversation.locator('[data-tool=convert]').getAttribute('data-state')).resolves.toBe(
      'output-available',
    );

    // And the chat goes on after the reload.
    await page.getByLabel('Message').fill('what are my notes?');
    await page.getByRole('button', { name: 'Send' }).click();
    await conversation.getByText('Your notes: the milk and the eggs.').waitFor();
    await page.context().close();
  });

  it('a new chat, and a reload before its first message, ask the server for nothing and log no error', async () => {
    const page = await signIn('carol');
    const problems: string[] = [];
    const asked: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('request', (request) => {
      if (request.method() === 'GET' && new URL(request.url()).pathname.startsWith('/api/')) asked.push(request.url());
    });
    await page.reload();
    await page.getByLabel('Message').waitFor();
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.reload();
    await page.getByLabel('Message').waitFor();
    expect(new URL(page.url()).searchParams.get('chat')).toBeNull();
    expect(asked).toEqual([]);
    await expect(page.getByRole('status').count()).resolves.toBe(0); // no "There is no chat …"

    await page.getByLabel('Message').fill('remember the bread');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByLabel('Conversation').getByText('Noted: the bread.').waitFor();
    const chat = new URL(page.url()).searchParams.get('chat');
    expect(chat).toMatch(/^[0-9a-f]{24}$/);
    await page.reload();
    await page.getByLabel('Conversation').getByText('Noted: the bread.').waitFor();
    expect(asked).toEqual([`${url}/api/chat/${chat}`]);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("a second user (another browser context) cannot open the first user's chat, and writing to its id starts their own", async () => {
    const page = await signIn('bob');
    await page.goto(`${url}/?chat=${aliceChat}`);
    await page.getByRole('status').getByText(`There is no chat ${aliceChat} for you.`).waitFor();
    await expect(page.getByText('the milk', { exact: false }).count()).resolves.toBe(0);
    const direct = await page.evaluate(async (id) => {
      const history = await fetch(`/api/chat/${id}`);
      const view = await fetch(`/api/sessions/${id}`);
      return { history: history.status, view: view.status, body: await history.text() };
    }, aliceChat);
    expect(direct).toEqual({
      history: 404,
      view: 404,
      body: JSON.stringify({ error: { code: 'not_found', message: 'No such chat.' } }),
    });
    // Writing to that id starts Bob's own chat: chats are scoped by owner, so Alice's is untouched
    // and Bob cannot tell that she has one under this id.
    await page.getByLabel('Message').fill('remember my password');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByLabel('Conversation').getByText('Noted: my password.').waitFor();
    const users = async (owner: string) =>
      (await sessions.messages(aliceChat, { limit: 100, owner }))
        .filter((m) => m.role === 'user')
        .map((m) => textOf(m));
    await expect(users('alice')).resolves.toEqual([
      'remember the milk and the eggs',
      'convert 5 km to mi',
      'what are my notes?',
    ]);
    await expect(users('bob')).resolves.toEqual(['remember my password']);
    await page.context().close();
    expect(pageErrors).toEqual([]);
  });
});
