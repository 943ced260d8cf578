import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { type Message, type Model, type Sessions, textOf } from '@skilltree/core';
import { CHROMIUM_ARGS, chromiumPath } from '@skilltree/test-kit';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/server/app.js';
import { demoModel, STORY } from '../src/server/demo-model.js';
import type { Refunds } from '../src/server/refunds.js';
import { openStore } from '../src/server/store.js';
import { png } from './png.js';

const root = fileURLToPath(new URL('..', import.meta.url));

let url: string;
let browser: Browser;
let sessions: Sessions;
let refunds: Refunds;
let server: ReturnType<typeof serve>;
const pageErrors: string[] = [];
/** The transcript of every model request, as the model got it. */
const requests: Message[][] = [];

/** What the demo model does before a story's last word: nothing, unless a test holds it there. */
let hold: (signal: AbortSignal | undefined) => Promise<void> = async () => {};

/**
 * Holds the next story before its last word: `reached` resolves (with the model call's signal) once
 * the rest of it streamed, and the story ends when the test calls `release`. The answer is then
 * mid-stream by construction, whatever the machine's speed.
 */
function holdStory(): { reached: Promise<AbortSignal | undefined>; release: () => void } {
  let release = () => {};
  let reach: (signal: AbortSignal | undefined) => void = () => {};
  const reached = new Promise<AbortSignal | undefined>((resolve) => {
    reach = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  hold = (signal) => {
    reach(signal);
    return gate;
  };
  return { reached, release };
}

/** The demo model, recording what each request carried. */
function recorded(model: Model): Model {
  return {
    name: model.name,
    generate(req, opts) {
      requests.push(structuredClone(req.messages));
      return model.generate(req, opts);
    },
    stream(req, opts) {
      requests.push(structuredClone(req.messages));
      return model.stream!(req, opts);
    },
  };
}

beforeAll(async () => {
  const executablePath = chromiumPath();
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
  const store = await openStore(':memory:');
  // The demo model streams one word every 80 ms, so the test can see the reply arrive; stories go
  // faster: the tests that need one mid-stream hold it there (holdStory).
  const model = recorded(demoModel({ delayMs: 80, storyDelayMs: 10, hold: (signal) => hold(signal) }));
  const created = createApp({ store, model, staticDir: join(root, 'dist') });
  sessions = created.sessions;
  refunds = created.refunds;
  await new Promise<void>((resolve) => {
    server = serve({ fetch: created.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath,
    args: [...CHROMIUM_ARGS],
  });
});

afterEach(() => {
  hold = async () => {};
  // No page threw: every test's pages are checked.
  expect(pageErrors.splice(0)).toEqual([]);
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

/**
 * Resolves once the chat's turn has ended and committed: it asks the store again on each turn of the
 * event loop until the chat has no running turn (a condition, not a time margin).
 */
async function turnEnded(chat: string, owner: string): Promise<void> {
  while ((await sessions.get(chat, { owner }))?.running) await new Promise((resolve) => setImmediate(resolve));
}

/** Sends `text` from the page. */
async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** `name` signs in and asks for a story, which streams up to its last word and holds there (see holdStory). */
async function storyHeld(name: string) {
  const page = await signIn(name);
  const story = holdStory();
  await send(page, 'tell me a story');
  const signal = await story.reached;
  return { page, story, signal };
}

/** The chat id the page put in its URL. */
function chatOf(page: Page): string {
  return new URL(page.url()).searchParams.get('chat') ?? '';
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
    // The chat, then its running turn (none: 204), which a reload resumes.
    expect(asked).toEqual([`${url}/api/chat/${chat}`, `${url}/api/chat/${chat}/stream`]);
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
  });
});

describe('photos, approvals, reloads and stops in a browser', () => {
  it('a photo attached to a message reaches the model as a file part and shows in the page, also after a reload', async () => {
    const page = await signIn('dana');
    const photo = png(8, 6, [200, 40, 40]);
    await page.getByLabel('Attach a photo').setInputFiles({ name: 'parcel.png', mimeType: 'image/png', buffer: photo });
    await page.locator('[data-attached="1"]').getByText('parcel.png').waitFor();
    await send(page, 'my parcel arrived like this');
    const conversation = page.getByLabel('Conversation');
    await conversation.getByText(`I got your photo: parcel.png (image/png, ${photo.length} bytes).`).waitFor();
    await expect(page.locator('[data-attached]').count()).resolves.toBe(0);

    // The model's request carried the photo's very bytes as a file part of the user's message.
    const user = requests
      .flat()
      .findLast((m) => m.role === 'user' && textOf(m).includes('my parcel arrived like this'));
    expect(user?.content).toContainEqual(
      expect.objectContaining({
        type: 'file',
        mediaType: 'image/png',
        filename: 'parcel.png',
        data: photo.toString('base64'),
      }),
    );

    // The page shows it as an image, decoded: 8 × 6 pixels. A reload shows it again, from the store.
    const size = async () =>
      conversation.locator('[data-role=user] img[alt="parcel.png"]').evaluate(async (img: HTMLImageElement) => {
        await img.decode();
        return [img.naturalWidth, img.naturalHeight];
      });
    await expect(size()).resolves.toEqual([8, 6]);
    await page.reload();
    await conversation.getByText('I got your photo: parcel.png').waitFor();
    await expect(size()).resolves.toEqual([8, 6]);
    await page.context().close();
  });

  it('a file that is not what it says it is is refused with the reason, and nothing is stored', async () => {
    const page = await signIn('jack');
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    await page.getByLabel('Attach a photo').setInputFiles({ name: 'evil.png', mimeType: 'image/png', buffer: html });
    await send(page, 'look at this');
    await page
      .getByRole('alert')
      .getByText('is HTML declared as image/png; it can carry script and is not accepted.')
      .waitFor();
    await expect(sessions.get(chatOf(page), { owner: 'jack' })).resolves.toBeNull();
    expect(requests.flat().some((m) => m.role === 'user' && textOf(m).includes('look at this'))).toBe(false);
    await page.context().close();
  });

  it('a refund waits for Approve: nothing runs before it, approving runs the refund once and the answer streams', async () => {
    const page = await signIn('erin');
    await send(page, 'refund order A-1001');
    const call = page.locator('[data-tool=refund]');
    await page.locator('[data-tool=refund][data-state=approval-requested]').waitFor();
    await page.locator('main[data-status=ready]').waitFor();
    const chat = chatOf(page);
    const issued = () => refunds.issued.filter((refund) => refund.chat === chat);
    expect(issued()).toEqual([]);
    await expect(sessions.get(chat, { owner: 'erin' })).resolves.toMatchObject({
      waiting: [{ name: 'refund', for: 'approval', input: { order: 'A-1001' }, status: 'waiting' }],
    });
    // The model's reasoning shows too (its text only).
    await expect(page.locator('.reasoning').textContent()).resolves.toContain('refund of order A-1001');

    await call.getByRole('button', { name: 'Approve' }).click();
    const conversation = page.getByLabel('Conversation');
    await conversation.getByText(/^Done: Refund R-\d{4} issued for order A-1001\.$/).waitFor();
    await page.locator('main[data-status=ready]').waitFor();
    expect(issued()).toEqual([{ order: 'A-1001', chat }]);
    await expect(call.getAttribute('data-state')).resolves.toBe('output-available');
    await expect(
      conversation.locator('[data-role]').evaluateAll((els) => els.map((e) => e.dataset.role)),
    ).resolves.toEqual(['user', 'assistant']);

    // After a reload the call shows as done, with nothing left to answer, and it ran once.
    await page.reload();
    await conversation.getByText(/^Done: Refund R-\d{4} issued for order A-1001\.$/).waitFor();
    await expect(call.getAttribute('data-state')).resolves.toBe('output-available');
    await expect(page.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);
    await expect(sessions.get(chat, { owner: 'erin' })).resolves.toMatchObject({ waiting: [] });
    expect(issued()).toEqual([{ order: 'A-1001', chat }]);
    await page.context().close();
  });

  it('a waiting refund is still there after a reload and can be answered: Deny reaches the model, and the refund never runs', async () => {
    const page = await signIn('fred');
    await send(page, 'refund order B-2002');
    await page.locator('[data-tool=refund][data-state=approval-requested]').waitFor();
    const chat = chatOf(page);

    await page.reload();
    const waiting = page.locator('[data-tool=refund][data-state=approval-requested]');
    await waiting.waitFor();
    await waiting.getByRole('button', { name: 'Deny' }).click();
    const conversation = page.getByLabel('Conversation');
    await conversation
      .getByText('I did not refund order B-2002: Denied: The user said no. The tool did not run.')
      .waitFor();
    await page.locator('main[data-status=ready]').waitFor();
    const call = page.locator('[data-tool=refund]');
    await expect(call.textContent()).resolves.toContain('Denied');
    expect(refunds.issued.filter((refund) => refund.chat === chat)).toEqual([]);
    // The model read the denial as the refund's result.
    expect(requests.at(-1)?.at(-1)).toMatchObject({ role: 'tool', name: 'refund', isError: true, errorKind: 'denied' });
    // The store has it as the call's error result: a reload shows it so, with nothing left to answer.
    await page.reload();
    await conversation.getByText('I did not refund order B-2002').waitFor();
    await expect(call.getAttribute('data-state')).resolves.toBe('output-error');
    await expect(call.textContent()).resolves.toContain('Denied: The user said no. The tool did not run.');
    await expect(page.getByRole('button', { name: 'Deny' }).count()).resolves.toBe(0);
    await page.context().close();
  });

  it('a reload while the answer streams shows the whole answer, once (useChat resume)', async () => {
    const { page, story } = await storyHeld('gina');
    // Everything but the last word has streamed, and the page shows it.
    const conversation = page.getByLabel('Conversation');
    await conversation.getByText(STORY.slice(0, STORY.lastIndexOf(' '))).waitFor();
    const chat = chatOf(page);

    const resumed = page.waitForResponse((r) => r.url() === `${url}/api/chat/${chat}/stream`);
    await page.reload();
    expect((await resumed).status()).toBe(200);
    // The turn ran on without the page that started it; it ends now, and the reloaded page gets it all.
    story.release();
    await conversation.getByText(STORY, { exact: true }).waitFor();
    await page.locator('main[data-status=ready]').waitFor();
    await expect(conversation.getByText(STORY, { exact: true }).count()).resolves.toBe(1);
    await expect(
      conversation.locator('[data-role]').evaluateAll((els) => els.map((e) => e.dataset.role)),
    ).resolves.toEqual(['user', 'assistant']);
    expect((await sessions.get(chat, { owner: 'gina' }))?.running ?? null).toBeNull();
    await page.context().close();
  });

  it('a turn that ends between loading the chat and resuming it shows its answer all the same', async () => {
    const { page, story } = await storyHeld('iris');
    const chat = chatOf(page);
    // The reloaded page loads the chat while the turn runs (its answer left out, for the resume to
    // send); the turn ends before the resume is asked, which then finds none running (204).
    let resumes = 0;
    await page.route(`${url}/api/chat/${chat}/stream`, async (route) => {
      resumes++;
      story.release();
      await turnEnded(chat, 'iris');
      await route.continue();
    });
    const nothing = page.waitForResponse((r) => r.url() === `${url}/api/chat/${chat}/stream`);
    await page.reload();
    expect((await nothing).status()).toBe(204);
    const conversation = page.getByLabel('Conversation');
    await conversation.getByText(STORY, { exact: true }).waitFor();
    await expect(
      conversation.locator('[data-role]').evaluateAll((els) => els.map((e) => e.dataset.role)),
    ).resolves.toEqual(['user', 'assistant']);
    expect(resumes).toBe(1);
    await page.context().close();
  });

  it('Stop stops the turn on the server too: the model call is aborted, and the chat takes the next message', async () => {
    const { page, story, signal } = await storyHeld('hank');
    expect(signal).toBeDefined();
    const aborted = new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
    const chat = chatOf(page);

    const stopped = page.waitForResponse((r) => r.url() === `${url}/api/chat/${chat}/stop`);
    await page.getByRole('button', { name: 'Stop' }).click();
    expect((await stopped).status()).toBe(202);
    await aborted;
    await page.locator('main[data-status=ready]').waitFor();

    await send(page, 'convert 5 km to mi');
    const conversation = page.getByLabel('Conversation');
    await conversation.getByText('5 km = 3.11 mi.').waitFor();
    await expect(conversation.getByText(STORY, { exact: true }).count()).resolves.toBe(0);
    story.release();
    await page.context().close();
  });
});
