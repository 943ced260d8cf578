/**
 * The chat page `skilltree serve` shows at `/`, in Debian's chromium: a message streams in with its
 * tool calls and the skill load, and a reload restores the chat from the server.
 */
import { CHROMIUM_ARGS, chromiumPath } from '@skilltree/test-kit';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ServeProcess, startServe } from './serve-helpers.js';

let serve: ServeProcess;
let browser: Browser;

/** A new page that collects its script errors and the errors its console logs. */
async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  return { page, problems };
}

/** A UI message stream as the server sends it (SSE), from its chunks. */
function sse(chunks: object[]): string {
  return `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`;
}

beforeAll(async () => {
  const executablePath = chromiumPath();
  serve = await startServe(['test/fixtures/shop-agent.tsx', '--port', '0', '--model', 'demo']);
  browser = await chromium.launch({
    executablePath,
    args: [...CHROMIUM_ARGS],
  });
});

afterAll(async () => {
  await browser?.close();
  await serve?.stop();
});

it('the built-in page chats: the reply with its tool calls and skill load, restored after a reload', async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(serve.url);
  await page.getByLabel('Message').fill('I want a lamp');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByText('Added lamp-1. (1 search)').waitFor();
  const agent = page.locator('[data-role=assistant]');
  await expect(agent.locator('[data-skill-loaded=shopping]').count()).resolves.toBe(1);
  await expect(
    agent.locator('details[data-tool]').evaluateAll((els) => els.map((e) => e.dataset.tool)),
  ).resolves.toEqual(['read_skill', 'search', 'add_to_cart']);
  const chat = new URL(page.url()).hash;
  expect(chat).toMatch(/^#chat=[0-9a-f]{24}$/);

  await page.reload();
  await page.getByText('Added lamp-1. (1 search)').waitFor();
  await expect(page.getByText('I want a lamp').count()).resolves.toBe(1);
  await expect(page.locator('[data-role]').evaluateAll((els) => els.map((e) => e.dataset.role))).resolves.toEqual([
    'user',
    'assistant',
  ]);
  expect(problems).toEqual([]);
});

it('a new chat, and a reload before its first message, ask the server for nothing and log no error', async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  const asked: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('request', (request) => {
    if (request.method() === 'GET' && new URL(request.url()).pathname.startsWith('/api/')) asked.push(request.url());
  });
  await page.goto(serve.url);
  await page.reload();
  await page.getByRole('button', { name: 'New chat' }).click();
  await page.reload();
  await page.getByLabel('Message').waitFor();
  expect(new URL(page.url()).hash).toBe('');
  expect(asked).toEqual([]);

  // The first message puts the chat in the URL; from then on a reload restores it.
  await page.getByLabel('Message').fill('I want a lamp');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByText('Added lamp-1. (1 search)').waitFor();
  expect(new URL(page.url()).hash).toMatch(/^#chat=[0-9a-f]{24}$/);
  await page.reload();
  await page.getByText('Added lamp-1. (1 search)').waitFor();
  expect(asked).toHaveLength(1);
  expect(problems).toEqual([]);
  await page.close();
});

it('the served page holds no reducer of its own: the AI SDK applies every chunk (kinds and rules the page never lists)', async () => {
  const { page, problems } = await openPage();
  // The answer to the page's POST is a stream no skilltree turn sends today: reasoning, a tool input
  // streamed in deltas, a data part updated by its id, a transient data part, message metadata.
  // The page shows what the AI SDK's chat state makes of them, as useChat would.
  await page.route('**/api/chat', (route) =>
    route.fulfill({
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' },
      body: sse([
        { type: 'start', messageId: 'm1' },
        { type: 'start-step' },
        { type: 'reasoning-start', id: 'r1' },
        { type: 'reasoning-delta', id: 'r1', delta: 'Thinking about lamps.' },
        { type: 'reasoning-end', id: 'r1' },
        { type: 'tool-input-start', toolCallId: 'c1', toolName: 'search', dynamic: true },
        { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"q":"la' },
        { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: 'mp"}' },
        { type: 'tool-input-available', toolCallId: 'c1', toolName: 'search', input: { q: 'lamp' }, dynamic: true },
        { type: 'tool-output-available', toolCallId: 'c1', output: 'lamp-1', dynamic: true },
        { type: 'data-context-changed', id: 'changes', data: { lines: ['first version'] } },
        { type: 'data-context-changed', id: 'changes', data: { lines: ['second version'] } },
        { type: 'data-context-changed', data: { lines: ['only for onData'] }, transient: true },
        { type: 'message-metadata', messageMetadata: { note: 'ignored by the page' } },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Found ' },
        { type: 'text-delta', id: 't1', delta: '<b>lamp-1</b>.' },
        { type: 'text-end', id: 't1' },
        { type: 'finish-step' },
        { type: 'finish', finishReason: 'stop' },
      ]),
    }),
  );
  await page.goto(serve.url);
  await page.getByLabel('Message').fill('I want a lamp');
  await page.getByRole('button', { name: 'Send' }).click();
  const agent = page.locator('[data-role=assistant]');
  // Text is text: the markup the agent wrote shows as characters, no element is made of it.
  await agent.getByText('Found <b>lamp-1</b>.').waitFor();
  await expect(agent.locator('b').count()).resolves.toBe(0);
  await expect(agent.locator('.reasoning').allTextContents()).resolves.toEqual(['Thinking about lamps.']);
  await expect(
    agent.locator('details[data-tool]').evaluateAll((els) => els.map((e) => [e.dataset.tool, e.dataset.state])),
  ).resolves.toEqual([['search', 'output-available']]);
  // A data part sent again under its id replaces the first; a transient one is not part of the message.
  await expect(agent.locator('.changed').allTextContents()).resolves.toEqual(['second version']);
  expect(problems).toEqual([]);
  await page.close();
});

/** `skilltree serve` of the approval agent, with a script that refunds order 7 once allowed. */
const serveApprovals = () =>
  startServe([
    'test/fixtures/approval-agent.tsx',
    '--port',
    '0',
    '--model',
    'scripted:test/fixtures/script-refund.json',
  ]);

/** Opens the page at `url` and asks for a refund of order 7. */
async function askForRefund(url: string) {
  const opened = await openPage();
  await opened.page.goto(url);
  await opened.page.getByLabel('Message').fill('refund order 7');
  await opened.page.getByRole('button', { name: 'Send' }).click();
  return opened;
}

it('a call that needs approval shows Approve and Deny; Approve runs it and the answer streams on', async () => {
  const approvals = await serveApprovals();
  try {
    const { page, problems } = await askForRefund(approvals.url);
    const call = page.locator('details[data-tool=refund]');
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await expect(call.getAttribute('data-state')).resolves.toBe('approval-requested');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Done with order 7.').waitFor();
    await expect(call.getAttribute('data-state')).resolves.toBe('output-available');
    await expect(call.locator('pre').textContent()).resolves.toBe('refunded order 7');

    // Restored after a reload as the server recorded it: one reply, the call done, no buttons.
    await page.reload();
    await page.getByText('Done with order 7.').waitFor();
    await expect(page.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);
    await expect(page.locator('details[data-tool=refund]').getAttribute('data-state')).resolves.toBe(
      'output-available',
    );
    expect(problems).toEqual([]);
    await page.close();
  } finally {
    await approvals.stop();
  }
});

it('Deny answers the call without running it: the page shows it denied and the answer goes on', async () => {
  const approvals = await serveApprovals();
  try {
    const { page, problems } = await askForRefund(approvals.url);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByText('Done with order 7.').waitFor();
    const call = page.locator('details[data-tool=refund]');
    await expect(call.getAttribute('data-state')).resolves.toBe('output-error');
    await expect(call.locator('pre').textContent()).resolves.toBe('Denied. The tool did not run.');
    await expect(page.getByText('refunded order 7').count()).resolves.toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  } finally {
    await approvals.stop();
  }
});

it('a refused message and a turn that fails show their sentence, as text, under the chat', async () => {
  const { page, problems } = await openPage();
  let answers = 0;
  await page.route('**/api/chat', (route) => {
    answers++;
    return answers === 1
      ? route.fulfill({
          status: 429,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'rate_limited', message: 'Too many turns: wait a minute.' } }),
        })
      : route.fulfill({
          status: 200,
          headers: { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' },
          body: sse([{ type: 'start' }, { type: 'error', errorText: 'The model is <down>.' }]),
        });
  });
  await page.goto(serve.url);
  await page.getByLabel('Message').fill('I want a lamp');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.locator('.problem').textContent()).resolves.toBe('Too many turns: wait a minute.');
  await page.getByLabel('Message').fill('again');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.locator('.problem', { hasText: 'The model is <down>.' }).waitFor();
  // The browser logs the refused request (429) itself; the page adds no error of its own.
  expect(problems.filter((p) => !p.includes('429'))).toEqual([]);
  await page.close();
});
