/**
 * The chat page `skilltree serve` shows at `/`, in Debian's chromium: a message streams in with its
 * tool calls and the skill load, and a reload restores the chat from the server.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ServeProcess, startServe } from './serve-helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
let serve: ServeProcess;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium.`);
  serve = await startServe(['test/fixtures/shop-agent.tsx', '--port', '0', '--model', 'demo']);
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
