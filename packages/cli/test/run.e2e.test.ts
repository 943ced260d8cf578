/**
 * `skilltree run`, end to end: the real binary against a local OpenAI-compatible server.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textOf } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { keyVariables } from '../src/kit/pick-model.js';
import { AGENT, chatCompletionsLine, openAIServerPerTest, runCheckout, shoppingSteps } from './helpers/e2e.js';
import { CLI_DIR, runCli } from './helpers/run-cli.js';
import { storedSession } from './helpers/stored-session.js';

const local = openAIServerPerTest();
const openai = local.start;

describe('skilltree run', () => {
  it('runs one turn with a .tsx agent (hooks + useAgentStore) and prints only the reply', async () => {
    const env = await openai(shoppingSteps);
    const result = await runCli(['run', AGENT, '-m', 'I want a lamp'], { env });
    expect(result.stderr).toContain('Using openai:gpt-4.1 (OPENAI_API_KEY is set');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('I added lamp-1 to your cart.\n');
    const requests = local.server.requests;
    expect(requests).toHaveLength(4);
    expect(requests[0].model).toBe('gpt-4.1');
    expect(requests[0].messages[0]).toMatchObject({ role: 'system' });
    expect(requests[0].messages[0].content).toContain('You are a shop assistant.');
    expect(requests[0].tools.map((t: any) => t.function.name)).toEqual(['read_skill']);
    // useState in the skill: the search tool's setter shows in the next request's context.
    expect(JSON.stringify(requests[2].messages)).toContain('Searches: 1');
    // useAgentStore: the cart is in the context and the conditional checkout tool appears.
    expect(JSON.stringify(requests[3].messages)).toContain('Cart: lamp-1');
    expect(requests[3].tools.map((t: any) => t.function.name)).toEqual([
      'read_skill',
      'search',
      'add_to_cart',
      'checkout',
    ]);
  });

  it('--json prints { reply, transcript, request }', async () => {
    const env = await openai(shoppingSteps);
    const result = await runCli(['run', AGENT, '-m', 'I want a lamp', '--json', '--model', 'openai:my-model'], { env });
    expect(result.code).toBe(0);
    // The test server has only Chat Completions (like most local servers): openai() says once that it
    // switched to it, and nothing else reaches stderr.
    expect(result.stderr).toBe(chatCompletionsLine(env, 'my-model'));
    const out = JSON.parse(result.stdout);
    expect(out.reply).toBe('I added lamp-1 to your cart.');
    expect(out.transcript.map((m: any) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(out.request.system).toContain('- shopping — Find and buy products');
    expect(out.request.context).toContain('Cart: lamp-1');
    expect(out.request.tools.map((t: any) => t.name)).toContain('checkout');
    expect(out.loadedSkills).toEqual(['shopping']);
    expect(out.steps).toBe(4);
    expect(local.server.requests[0].model).toBe('my-model');
  });

  it('--verbose prints skill loads and tool calls on stderr, stdout stays the reply', async () => {
    const env = await openai(shoppingSteps);
    const result = await runCli(['run', AGENT, '-m', 'lamp', '--verbose'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('I added lamp-1 to your cart.\n');
    expect(result.stderr).toContain('+ skill shopping loaded');
    expect(result.stderr).toContain('⚙ add_to_cart {"sku":"lamp-1"}');
    expect(result.stderr).toContain('↳ added lamp-1');
  });

  it('honours --max-loaded-skills and --max-transcript-messages', async () => {
    const env = await openai([
      { toolCalls: [{ name: 'read_skill', arguments: { name: 'shopping' } }] },
      { toolCalls: [{ name: 'read_skill', arguments: { name: 'refunds' } }] },
      { text: 'Both loaded.' },
    ]);
    const result = await runCli(
      ['run', AGENT, '-m', 'hi', '--json', '--max-loaded-skills', '2', '--max-transcript-messages', '3'],
      { env },
    );
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.loadedSkills).toEqual(['shopping', 'refunds']);
    expect(out.request.system).toContain('At most 2 stay loaded');
    // The window starts at the newest user message even when it is older than the cap.
    expect(out.request.messages[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'hi' }] });
  });

  it('reads the message from stdin when -m is not given', async () => {
    const env = await openai([{ text: 'Got it.' }]);
    const result = await runCli(['run', AGENT], { env, stdin: 'hello from a pipe\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Got it.\n');
    expect(local.server.requests[0].messages[1].content).toMatch(/^hello from a pipe\n/);
  });

  /** `skilltree run AGENT -m lamp --json` on the scripted lamp model: its JSON output, once it exits 0. */
  async function lampRunJson(): Promise<any> {
    const result = await runCli([
      'run',
      AGENT,
      '-m',
      'lamp',
      '--json',
      '--model',
      'scripted:test/fixtures/script-lamp.json',
    ]);
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout);
  }

  it('plays a scripted:<file.json> model', async () => {
    const out = await lampRunJson();
    expect(out.reply).toBe('Your cart has lamp-1.');
    expect(out.request.context).toContain('Searches: 1');
    expect(out.request.tools.map((t: any) => t.name)).toContain('checkout');
  });

  it("--json gives each request's attribution: a loaded skill's tools cost tokens on every request while it is loaded", async () => {
    const out = await lampRunJson();
    expect(out.requests.map((r: any) => r.step)).toEqual([1, 2, 3, 4]);
    // Before the read, the catalog costs tokens and no skill does.
    expect(out.requests[0].attribution.skills).toEqual({});
    expect(out.requests[0].attribution.catalog).toBeGreaterThan(0);
    // Loaded from the second request on: its tools cost tokens on each one.
    for (const { attribution } of out.requests.slice(1)) {
      expect(attribution.skills.shopping.tools).toBeGreaterThan(0);
      expect(attribution.total).toBeGreaterThan(attribution.skills.shopping.total);
    }
    // The next request, too, says what its parts cost.
    expect(out.request.attribution.skills.shopping.tools).toBeGreaterThan(0);
  });

  it('plays the demo with no key and no -m', async () => {
    const result = await runCli(['run', AGENT]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("playing the module's scripted demo");
    expect(result.stdout).toBe('Refunded order 7.\n');
  });

  it('--session saves after each turn to SQLite and resumes transcript, loaded skills and stores', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-session-'));
    const file = join(dir, 'nested', 'sessions.db');
    const store = `sqlite:${file}`;
    const env = await openai(shoppingSteps);
    const first = await runCli(['run', AGENT, '-m', 'I want a lamp', '--session', 'cart', '--store', store], { env });
    expect(first.code).toBe(0);
    expect(existsSync(file)).toBe(true);
    const saved = await storedSession(file, 'cart');
    expect(saved.record).toMatchObject({ version: 1, length: 8 });
    expect(saved.record?.state).toMatchObject({ loadedSkills: ['shopping'], stores: { cart: { items: ['lamp-1'] } } });

    await runCheckout(local.server, 'cart', store, env);
    // The resumed request had the loaded skill's tools, including the store-driven checkout.
    const resumed = local.server.requests[4];
    expect(resumed.tools.map((t: any) => t.function.name)).toContain('checkout');
    expect(resumed.messages.filter((m: any) => m.role === 'user')).toHaveLength(2);
    expect((await storedSession(file, 'cart')).messages).toHaveLength(12);
  });

  it('--session without --store keeps sessions in .skilltree/sessions.db of the working directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-session-'));
    const env = await openai([{ text: 'Hi.' }]);
    const result = await runCli(['run', join(CLI_DIR, AGENT), '-m', 'hello', '--session', 'mine'], { env, cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('Resumed');
    const saved = await storedSession(join(dir, '.skilltree', 'sessions.db'), 'mine');
    expect(saved.messages.map(textOf)).toEqual(['hello', 'Hi.']);
  });

  it('--session says on stderr when it resumed a stored session, as chat does (not with --json)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-session-'));
    const env = await openai([{ text: 'Hi.' }, { text: 'Hi again.' }, { text: 'Still here.' }]);
    const run = (...flags: string[]) =>
      runCli(['run', join(CLI_DIR, AGENT), '-m', 'hello', '--session', 'mine', ...flags], { env, cwd: dir });
    expect((await run()).stderr).not.toContain('Resumed');
    const second = await run();
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('Resumed 2 messages from mine (loaded: none).');
    expect(second.stdout).toBe('Hi again.\n');
    const json = await run('--json');
    expect(json.stderr).not.toContain('Resumed');
    expect(JSON.parse(json.stdout).transcript).toHaveLength(6);
  });
});

describe('skilltree run errors', () => {
  it('a model error exits 1 with the provider message', async () => {
    const env = await openai([{ status: 401, error: 'Incorrect API key provided' }]);
    const result = await runCli(['run', AGENT, '-m', 'hi'], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/skilltree: The turn failed \(model openai:gpt-4\.1\):.*Incorrect API key provided/);
  });

  it('a --session store that cannot be written fails before the model is called', async () => {
    const env = await openai(shoppingSteps);
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-session-'));
    const notADirectory = join(dir, 'notes.txt');
    writeFileSync(notADirectory, 'a file, not a directory');
    const cases: [string, RegExp][] = [
      // Its directory cannot be created: a file is in the way.
      [
        join(notADirectory, 'sessions.db'),
        /Cannot write the session store .*notes\.txt\/sessions\.db: .*notes\.txt is a file, not a directory/,
      ],
      // A read-only place, even for root: sysfs refuses new directories and files.
      [
        '/sys/skilltree-test/sessions.db',
        /Cannot write the session store \/sys\/skilltree-test\/sessions\.db: E(PERM|ACCES|ROFS)/,
      ],
      // The path is a directory.
      [dir, /The session store .* is a directory: pass a file path/],
    ];
    for (const [path, message] of cases) {
      const result = await runCli(
        ['run', AGENT, '-m', 'I want a lamp', '--session', 's', '--store', `sqlite:${path}`],
        {
          env,
        },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toMatch(/Pass a path in a directory you can write|pass a file path/);
    }
    expect(local.server.requests).toHaveLength(0);
    // Nothing was left behind.
    expect(readdirSync(dir)).toEqual(['notes.txt']);
  });

  it('a model error still saves a valid session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-session-'));
    const file = join(dir, 's.db');
    const env = await openai([
      { toolCalls: [{ name: 'read_skill', arguments: { name: 'shopping' } }] },
      { status: 400, error: 'context too long' },
    ]);
    const result = await runCli(['run', AGENT, '-m', 'hi', '--session', 's', '--store', file], { env });
    expect(result.code).toBe(1);
    const saved = await storedSession(file, 's');
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('a scripted model that runs out of steps exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-script-'));
    writeFileSync(
      join(dir, 'short.json'),
      JSON.stringify([{ toolCalls: [{ name: 'read_skill', input: { name: 'shopping' } }] }]),
    );
    const result = await runCli(['run', join(process.cwd(), AGENT), '-m', 'hi', '--model', 'scripted:short.json'], {
      cwd: dir,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/scriptedModel ran out of steps/);
  });

  it('exits 1 on a missing module, a module without a default export, a module or agent that throws', async () => {
    const missing = await runCli(['run', 'test/fixtures/nope.tsx', '-m', 'hi']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^skilltree: Agent module not found: test\/fixtures\/nope\.tsx/);

    const noDefault = await runCli([
      'run',
      'test/fixtures/no-default.tsx',
      '-m',
      'hi',
      '--model',
      'scripted:test/fixtures/script-lamp.json',
    ]);
    expect(noDefault.code).toBe(1);
    expect(noDefault.stderr).toMatch(/no default export to run.*\(it exports: Helper\)/);

    const render = await runCli([
      'run',
      'test/fixtures/throws-on-render.tsx',
      '-m',
      'hi',
      '--model',
      'scripted:test/fixtures/script-lamp.json',
    ]);
    expect(render.code).toBe(1);
    expect(render.stderr).toMatch(/^skilltree: The agent failed to mount: render exploded/);

    const throws = await runCli(['run', 'test/fixtures/throws-on-import.tsx', '-m', 'hi']);
    expect(throws.code).toBe(1);
    expect(throws.stderr).toMatch(/Could not load test\/fixtures\/throws-on-import\.tsx: boom at import time/);
  });

  it('exits 1 when no model is available, 2 on usage errors', async () => {
    const none = await runCli(['run', 'test/fixtures/element-agent.ts', '-m', 'hi']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`No model: set ${keyVariables()}`);

    const flag = await runCli(['run', AGENT, '-m', 'hi', '--temperature', '1']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/Unknown flag --temperature/);

    const noMessage = await runCli([
      'run',
      'test/fixtures/element-agent.ts',
      '--model',
      'scripted:test/fixtures/script-lamp.json',
    ]);
    expect(noMessage.code).toBe(2);
    expect(noMessage.stderr).toMatch(/run needs a message/);

    const badModel = await runCli(['run', AGENT, '-m', 'hi', '--model', 'llama']);
    expect(badModel.code).toBe(2);
    expect(badModel.stderr).toMatch(/Unknown model "llama"/);
  });

  it('runs a .ts module whose default export is an element', async () => {
    const env = await openai([{ text: 'Calm.' }]);
    const result = await runCli(['run', 'test/fixtures/element-agent.ts', '-m', 'mood?', '--json'], { env });
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout);
    expect(out.reply).toBe('Calm.');
    expect(out.request.tools).toEqual([]);
    expect(out.request.context).toContain('Mood: calm');
  });

  it('--file sends a file with the first message: its bytes decide its type; an HTML file is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-file-'));
    const note = join(dir, 'note.txt');
    writeFileSync(note, 'Order 7 arrived broken.');
    const script = ['--model', 'scripted:test/fixtures/script-lamp.json'];
    const result = await runCli(['run', AGENT, '-m', 'lamp', '--file', note, '--json', ...script]);
    expect(result.code).toBe(0);
    const first = JSON.parse(result.stdout).transcript[0];
    expect(first.content).toEqual([
      { type: 'text', text: 'lamp' },
      {
        type: 'file',
        mediaType: 'text/plain',
        data: Buffer.from('Order 7 arrived broken.').toString('base64'),
        filename: 'note.txt',
      },
    ]);

    const page = join(dir, 'page.txt');
    writeFileSync(page, '<!doctype html><html><script>alert(1)</script></html>');
    const refused = await runCli(['run', AGENT, '-m', 'lamp', '--file', page, ...script]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('page.txt');
    expect(refused.stderr).toContain('HTML');

    const missing = await runCli(['run', AGENT, '-m', 'lamp', '--file', join(dir, 'nope.png'), ...script]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`--file ${join(dir, 'nope.png')}:`);
  });
});
