/**
 * The commands read the agent module's exports, not only its default: `serve` its model (a function
 * of the chat gets each chat's id and owner), its session options, its per-user budget, its
 * telemetry and `authorize`; `chat` and `run` its model and session options. The flags win where
 * both set the same thing.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';
import { chat, type ServeProcess, startServe, stopServesAfterEach } from './serve-helpers.js';

const MODULE = 'test/fixtures/serve-options-agent.tsx';

let serve: ServeProcess | undefined;
stopServesAfterEach();

const as = (user: string) => ({ 'x-user': user });
const textOf = (message: UIMessage) =>
  message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');

/** POSTs one message to chat `id` as `user` and reads the answer to its end. */
async function post(url: string, id: string, text: string, user: string) {
  const response = await fetch(`${url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...as(user) },
    body: JSON.stringify({ id, message: { id: 'u1', role: 'user', parts: [{ type: 'text', text }] } }),
  });
  return { status: response.status, body: await response.text() };
}

/** Messages in `user`'s chat `id`, from the session view. */
async function transcriptLength(url: string, id: string, user: string): Promise<number> {
  const view = (await (await fetch(`${url}/api/sessions/${id}`, { headers: as(user) })).json()) as {
    transcriptLength: number;
  };
  return view.transcriptLength;
}

describe("skilltree serve reads the module's exports", () => {
  it("serves with the module's model (one per chat, made with its id and owner), its sessionOptions and its budget", async () => {
    serve = await startServe([MODULE, '--port', '0']);
    expect(serve.stdout()).toContain("model the module's model");

    const alice = await chat(serve.url, 'c1', 'hello', as('alice'));
    expect(textOf(alice)).toBe('alice/c1: hello');
    // The budget: 5,000 tokens a day per user, and that answer took 5,005.
    const again = await post(serve.url, 'c1', 'more', 'alice');
    expect(again.status).toBe(429);
    expect(JSON.parse(again.body)).toMatchObject({ error: { code: 'budget_exceeded' } });
    // Per user: Bob still has his, on a chat of the same id that is his own.
    const bob = await chat(serve.url, 'c1', 'hi', as('bob'));
    expect(textOf(bob)).toBe('bob/c1: hi');
    expect((await post(serve.url, 'c2', 'more', 'bob')).status).toBe(429);

    // sessionOptions: maxSteps 2, so a model that never stops calling tools is stopped after 2 calls.
    await post(serve.url, 'loop', 'loop', 'carol');
    expect(await transcriptLength(serve.url, 'loop', 'carol')).toBe(1 + 2 * 2);
  });

  it('--max-steps wins over the sessionOptions export, --model over the model export', async () => {
    serve = await startServe([MODULE, '--port', '0', '--max-steps', '3']);
    await post(serve.url, 'loop', 'loop', 'carol');
    expect(await transcriptLength(serve.url, 'loop', 'carol')).toBe(1 + 3 * 2);
    await serve.stop();

    // --model replaces the model only: the demo plays, and the module's maxSteps (2) still stops it.
    serve = await startServe([MODULE, '--port', '0', '--model', 'demo']);
    expect(serve.stdout()).toContain('model demo');
    const reply = await chat(serve.url, 'c1', 'I want a lamp', as('alice'));
    expect(reply.parts.filter((p) => p.type === 'dynamic-tool').map((p) => p.toolName)).toEqual([
      'read_skill',
      'search',
    ]);
    expect(await transcriptLength(serve.url, 'c1', 'alice')).toBe(1 + 2 * 2);
  });

  it("traces with the module's telemetry: its tracer gets the request and turn spans, named with its agentName", async () => {
    const spans = join(mkdtempSync(join(tmpdir(), 'skilltree-spans-')), 'spans.txt');
    serve = await startServe([MODULE, '--port', '0'], { SKILLTREE_TEST_SPANS: spans });
    expect(textOf(await chat(serve.url, 'c1', 'hello', as('alice')))).toBe('alice/c1: hello');
    expect(await serve.stop()).toBe(0);
    serve = undefined;
    const names = readFileSync(spans, 'utf8').split('\n');
    expect(names).toContain('invoke_agent fixture-shop');
    expect(names).toContain('POST /api/chat');
  });
});

describe("skilltree run reads the module's model and sessionOptions", () => {
  it('calls the model function with the --session name (else "cli") and no owner, and keeps its maxSteps', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-run-exports-'));
    const once = await runCli(['run', MODULE, '-m', 'hello']);
    expect(once.stdout.trim()).toBe('-/cli: hello');
    const named = await runCli(['run', MODULE, '-m', 'hi', '--session', 's1', '--store', `sqlite:${dir}/s.db`]);
    expect(named.stdout.trim()).toBe('-/s1: hi');
    const loop = await runCli(['run', MODULE, '-m', 'loop']);
    expect(loop.code).toBe(1);
    expect(loop.stderr).toContain('maxSteps reached: the model made 2 calls');
  });
});
