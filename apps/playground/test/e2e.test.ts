// @vitest-environment node
/**
 * End to end: `skilltree dev` (the CLI's binary) on the fixture agent (scripted model), the built
 * playground in Debian's chromium at 1,400 px wide. Sends a message, checks the Skills and Request
 * panels and that no panel is clipped, edits a skill file and checks that the conversation survived
 * the reload. With UPDATE_SCREENSHOT=1 it saves the screenshot as docs/playground.png.
 * On the desk fixture (a model that answers by rules): files attached to a message, a refused file,
 * calls that wait for approval or for the client, answered from the page, also after a reload.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevProcess, fixtureCopy, startDev } from './dev-process.js';

const here = dirname(fileURLToPath(import.meta.url));
const appDir = join(here, '..');
const docsDir = join(appDir, '..', '..', 'docs');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let fixture: ReturnType<typeof fixtureCopy>;
let server: DevProcess;
let browser: BrowserContext;
let page: Page;
let profile: string;
const pageErrors: string[] = [];

/** Panels (and their parts) whose content is wider than they are, or that reach past the window. */
function clippedPanels(target: Page = page): Promise<string[]> {
  return target.evaluate(() => {
    const out: string[] = [];
    for (const panel of document.querySelectorAll<HTMLElement>('[data-panel]')) {
      const name = panel.getAttribute('data-panel');
      if (panel.getBoundingClientRect().right > window.innerWidth) out.push(`${name} reaches past the window`);
      for (const part of [panel, ...panel.querySelectorAll<HTMLElement>('.panel-header, .panel-body, .chat-log')]) {
        if (part.scrollWidth > part.clientWidth + 1) {
          out.push(`${name} ${part.className}: ${part.scrollWidth} px of content in ${part.clientWidth} px`);
        }
      }
    }
    if (document.documentElement.scrollWidth > window.innerWidth) out.push('the page scrolls sideways');
    return out;
  });
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium).`);
  }
  await build({ root: appDir, configFile: join(appDir, 'vite.config.ts'), logLevel: 'warn' });
  fixture = fixtureCopy();
  server = await startDev(fixture.module);
  profile = mkdtempSync(join(tmpdir(), 'skilltree-chromium-'));
  // A fresh profile: playwright passes it to chromium as --user-data-dir.
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    viewport: { width: 1400, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  fixture?.cleanup();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

describe('skilltree dev in a browser', () => {
  it('bundles only the text helpers it imports from @skilltree/core, not the renderer', () => {
    const assets = join(appDir, 'dist', 'assets');
    const js = readdirSync(assets)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(assets, f), 'utf8'))
      .join('\n');
    // Core's parts helpers (textOf and its kin) are in: a file part reads as `[file: name]`.
    expect(js).toContain('[file: ');
    // Host types and reconciler entry points exist only in the parts of core the page must not ship.
    expect(js).not.toContain('skilltree-skill');
    expect(js).not.toContain('updateContainerSync');
  });

  it('chats, shows the loaded skill and its tools, and keeps the conversation across a reload', async () => {
    await page.goto(server.url);
    await page.getByText('live', { exact: true }).waitFor();
    await expect(page.locator('[data-panel=skills] [data-skill=notes]').getAttribute('data-state')).resolves.toBe(
      'unloaded',
    );
    // The demo's script answers its messages in order; typed text does not change what it says.
    const demo = page.getByRole('note', { name: 'Demo' });
    await expect(demo.textContent()).resolves.toContain('Next in the script: Remember to buy milk');
    await page.getByLabel('Message').fill('Tell me a joke');
    await expect(demo.textContent()).resolves.toContain('The scripted model ignores what you typed');
    await demo.getByRole('button', { name: 'Remember to buy milk' }).click();
    await expect(page.getByLabel('Message').inputValue()).resolves.toBe('Remember to buy milk');

    await page.getByRole('button', { name: 'Send' }).click();
    const chat = page.locator('[data-panel=chat]');
    await chat.getByText('Noted: buy milk.').waitFor();
    await expect(chat.locator('[data-tool-call=add_note]').count()).resolves.toBe(1);
    await expect(chat.locator('.context-changed').first().textContent()).resolves.toContain(
      'contextChanged notes loaded',
    );
    // The first step's reasoning, in the chat and on its timeline row.
    await expect(chat.locator('[data-reasoning]').first().textContent()).resolves.toContain(
      'The notes skill has the tool to add one.',
    );
    await expect(
      page.locator('[data-panel=timeline] [data-step="1.1"] [data-reasoning]').textContent(),
    ).resolves.toContain('The notes skill has the tool to add one.');
    // A classic request: where each step's request stopped matching the previous one.
    await expect(
      page.locator('[data-panel=timeline] [data-step="1.2"] [data-prefix-change]').textContent(),
    ).resolves.toBe('changed at tools.2');

    // Skills: notes loaded and active, mounted once.
    const notes = page.locator('[data-panel=skills] [data-skill=notes]');
    await expect(notes.getAttribute('data-state')).resolves.toBe('active');
    await expect(notes.locator('td.num').textContent()).resolves.toBe('1');
    // Request: the skill's tool with its JSON Schema, its context lines.
    const request = page.locator('[data-panel=request]');
    await expect(request.locator('[data-tool=add_note]').count()).resolves.toBe(1);
    await expect(request.getByTestId('request-context').textContent()).resolves.toContain('Notes: buy milk');
    await expect(page.locator('[data-panel=stores] [data-store=notes]').textContent()).resolves.toContain('buy milk');
    await expect(page.locator('[data-panel=timeline] tbody tr').count()).resolves.toBe(3);
    await expect(demo.textContent()).resolves.toContain('Next in the script: What are my notes?');
    // At 1,400 px wide, with a conversation, tools and a timeline on screen, no panel is clipped.
    await expect(clippedPanels()).resolves.toEqual([]);

    // Edit the skill: new instructions and a new tool.
    const file = join(fixture.dir, 'notes.tsx');
    const source = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      source
        .replace('Version 1.', 'Version 2.')
        .replace(
          '      <NoteList />',
          '      <NoteList />\n      <Tool name="clear_notes" description="Remove every note" input={z.object({})} run={() => "cleared"} />',
        ),
    );
    await page.locator('.banner-ok').getByText('Reloaded notes.tsx').waitFor({ timeout: 15_000 });
    await expect(page.locator('.banner-ok').textContent()).resolves.toContain('tool clear_notes added');

    // The conversation survived: messages, the loaded skill, the store.
    await expect(chat.getByText('Remember to buy milk').count()).resolves.toBe(1);
    await expect(chat.getByText('Noted: buy milk.').count()).resolves.toBe(1);
    await expect(notes.getAttribute('data-state')).resolves.toBe('active');
    await expect(request.locator('[data-tool=clear_notes]').count()).resolves.toBe(1);
    await expect(request.getByTestId('request-context').textContent()).resolves.toContain('Version 2.');
    await expect(page.locator('[data-panel=tree] [data-tree-tool=clear_notes] .owner').textContent()).resolves.toBe(
      '<Notes>',
    );

    // And it goes on with the new code.
    await page.getByLabel('Message').fill('What are my notes?');
    await page.getByRole('button', { name: 'Send' }).click();
    await chat.getByText('Your notes: buy milk.').waitFor();
    await expect(clippedPanels()).resolves.toEqual([]);

    // The README's screenshot is refreshed on request only, so a test run leaves the checkout clean.
    const shotDir = process.env.UPDATE_SCREENSHOT === '1' ? docsDir : profile;
    mkdirSync(shotDir, { recursive: true });
    const shot = join(shotDir, 'playground.png');
    await page.screenshot({ path: shot });
    expect(readFileSync(shot).subarray(1, 4).toString()).toBe('PNG');
    expect(pageErrors).toEqual([]);
  });

  it('shows the Cost view with every model call and the totals, unclipped at 1,400 px', async () => {
    // The demo's scripted model reports no usage: serve the page the real state with a long run of
    // steps whose usage a provider could report (large numbers included) and see that it fits.
    const real = await (await fetch(new URL('/api/state', server.url))).json();
    const usage = {
      inputTokens: 1_234_567,
      cacheReadTokens: 1_100_000,
      cacheWriteTokens: 98_765,
      outputTokens: 43_210,
    };
    const steps = Array.from({ length: 12 }, (_, i) => ({
      turn: 1 + Math.floor(i / 4),
      step: 1 + (i % 4),
      at: i,
      usage,
      cost: 123.4567,
    }));
    const state = {
      ...real,
      cost: {
        price: {
          price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
          label: 'claude-sonnet-4-5, list prices of 2025-11-01',
        },
        steps,
        unreported: 0,
        total: {
          usage: {
            inputTokens: 14_814_804,
            cacheReadTokens: 13_200_000,
            cacheWriteTokens: 1_185_180,
            outputTokens: 518_520,
          },
          cost: 1481.48,
        },
      },
    };
    const costPage = await browser.newPage();
    await costPage.route('**/api/events', (route) =>
      route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
        body: `retry: 60000\nevent: state\ndata: ${JSON.stringify(state)}\n\n`,
      }),
    );
    await costPage.goto(server.url);
    const cost = costPage.locator('[data-panel=cost]');
    await cost.locator('[data-cost-total]').waitFor();
    await expect(cost.locator('tbody tr').count()).resolves.toBe(12);
    await expect(cost.locator('[data-price]').textContent()).resolves.toBe(
      'priced as claude-sonnet-4-5, list prices of 2025-11-01',
    );
    await expect(cost.locator('[data-cost-total]').textContent()).resolves.toContain('$1481.48');
    const previous = page;
    page = costPage;
    try {
      await expect(clippedPanels()).resolves.toEqual([]);
    } finally {
      page = previous;
      await costPage.close();
    }
  });
});

/** A 1×1 PNG, as the desk fixture's screenshot tool returns too. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('skilltree dev in a browser: files and calls that wait', () => {
  let desk: ReturnType<typeof fixtureCopy>;
  let deskServer: DevProcess;
  let tab: Page;
  const problems: string[] = [];

  const chat = () => tab.locator('[data-panel=chat]');
  const deskState = async () => (await fetch(new URL('/api/state', deskServer.url))).json();
  const send = async (text: string) => {
    await tab.getByLabel('Message').fill(text);
    await tab.getByRole('button', { name: 'Send' }).click();
  };

  beforeAll(async () => {
    desk = fixtureCopy();
    deskServer = await startDev(join(desk.dir, 'desk-agent.tsx'));
    tab = await browser.newPage();
    tab.on('pageerror', (error) => problems.push(error.message));
    tab.on('console', (message) => {
      // The refused file's 400 is the answer the page expects (it shows the reason); anything else is a problem.
      if (message.type() === 'error' && !/status of 400/.test(message.text())) problems.push(message.text());
    });
    await tab.goto(deskServer.url);
    await tab.getByText('live', { exact: true }).waitFor();
  });

  afterAll(async () => {
    await tab?.close();
    await deskServer?.stop();
    desk?.cleanup();
  });

  it('attaches a PNG: the model request carries it as a file part and the chat shows its thumbnail', async () => {
    await tab.getByLabel('Attach files').setInputFiles({
      name: 'parcel.png',
      mimeType: 'image/png',
      buffer: Buffer.from(PIXEL_PNG, 'base64'),
    });
    await expect(tab.locator('[data-pending="parcel.png"]').textContent()).resolves.toContain('image/png, 70 B');
    await send('My parcel arrived like this');
    // The model names the files its request carried: the file reached it as a file part, as bytes.
    await chat().getByText('I received parcel.png (image/png, bytes).').waitFor();
    const thumb = chat().locator('[data-role=user] [data-attachment="parcel.png"] img');
    // Decoded by the browser: a real thumbnail, not a broken image.
    await expect(thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).resolves.toBe(1);
    await expect(tab.locator('[data-pending]').count()).resolves.toBe(0);
  });

  it('refuses a file whose bytes are HTML named .png: its reason shows, nothing is sent, the message comes back', async () => {
    const before = (await deskState()).transcript.length;
    await tab.getByLabel('Attach files').setInputFiles({
      name: 'evil.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<!doctype html><html><script>alert(1)</script></html>'),
    });
    await tab.locator('[data-pending="evil.png"]').waitFor();
    await send('look at this');
    await expect(chat().locator('[data-file-error]').textContent()).resolves.toBe(
      'Not sent: File "evil.png" is HTML declared as image/png; it can carry script and is not accepted.',
    );
    await expect(tab.getByLabel('Message').inputValue()).resolves.toBe('look at this');
    expect((await deskState()).transcript).toHaveLength(before);
    await tab.getByRole('button', { name: 'Remove evil.png' }).click();
    await expect(tab.locator('[data-pending]').count()).resolves.toBe(0);
  });

  it('shows a call that needs approval with Approve and Deny; Approve runs the tool once and the answer appears', async () => {
    await send('Refund order A-1');
    const call = chat().locator('[data-waiting=refund]');
    await call.waitFor();
    await expect(call.textContent()).resolves.toContain('waits for your approval');
    await expect(call.getByRole('button', { name: 'Deny' }).count()).resolves.toBe(1);
    await expect(clippedPanels(tab)).resolves.toEqual([]);
    await call.getByRole('button', { name: 'Approve' }).click();
    await chat().getByText('refund said: Refunded A-1 (run 1).').waitFor();
    await expect(chat().locator('[data-waiting]').count()).resolves.toBe(0);
    const results = (await deskState()).transcript.filter((m: any) => m.role === 'tool' && m.name === 'refund');
    expect(results).toHaveLength(1);
  });

  it('Deny, with a reason, makes the model read the denial; the tool does not run', async () => {
    await send('Refund it again');
    const call = chat().locator('[data-waiting=refund]');
    await call.waitFor();
    await call.getByLabel('Reason to deny refund').fill('too much');
    await call.getByRole('button', { name: 'Deny' }).click();
    await chat().getByText('refund said: Denied: too much. The tool did not run.').waitFor();
    await expect(
      chat()
        .getByText(/Refunded A-1 \(run 2\)/)
        .count(),
    ).resolves.toBe(0);
  });

  it('waiting calls survive a reload of the page, and are answered from the reloaded page', async () => {
    // However many refunds ran before (this test also runs alone), approving from the reloaded page runs one more.
    const refunded = () => chat().getByText(/^refund said: Refunded A-1 \(run \d+\)\.$/);
    await send('Refund once more');
    await chat().locator('[data-waiting=refund]').waitFor();
    const before = await refunded().count();
    await tab.reload();
    const call = chat().locator('[data-waiting=refund]');
    await call.waitFor();
    await call.getByRole('button', { name: 'Approve' }).click();
    await refunded().nth(before).waitFor();
    await expect(refunded().count()).resolves.toBe(before + 1);
  });

  it('a client tool (no run) is answered with a result typed in the page', async () => {
    await send('Pick a color');
    const call = chat().locator('[data-waiting=pick_color]');
    await call.waitFor();
    await expect(call.getByRole('button', { name: 'Approve' }).count()).resolves.toBe(0);
    await call.getByLabel('Result of pick_color').fill('teal');
    await call.getByRole('button', { name: 'Send result' }).click();
    await chat().getByText('pick_color said: teal').waitFor();
  });

  it('shows the image a tool returned as a thumbnail in its result, unclipped at 1,400 px', async () => {
    await send('Take a screenshot');
    await chat()
      .getByText(/^screenshot said: /)
      .waitFor();
    const thumb = chat().locator('[data-role=tool] [data-attachment="order.png"] img');
    await expect(thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).resolves.toBe(1);
    await expect(clippedPanels(tab)).resolves.toEqual([]);
    expect(problems).toEqual([]);
  });
});
