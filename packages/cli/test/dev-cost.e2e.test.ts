/**
 * The playground's Cost view, fed end to end: the real `skilltree dev` binary with an OpenAI model
 * served by the local test server, which reports usage with `cached_tokens`. The state the page
 * receives lists each model call's usage as it came off the wire, priced like the CLI's cost line.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { PRICES } from '@skilltree/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { DevState } from '../src/commands/dev/protocol.js';
import { fixtureCopy } from './dev-helpers.js';
import { openAIServerPerTest } from './helpers/e2e.js';
import { CLI_DIR } from './helpers/run-cli.js';

const local = openAIServerPerTest();
let child: ChildProcess | null = null;
let fixture: ReturnType<typeof fixtureCopy> | null = null;

afterEach(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child!.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
  child = null;
  fixture?.cleanup();
  fixture = null;
});

/** Starts `skilltree dev <fixture> -p 0 ...flags` and resolves with the URL it prints. */
function startDev(flags: string[], env: Record<string, string>): Promise<string> {
  fixture = fixtureCopy();
  const proc = spawn(
    process.execPath,
    [join(CLI_DIR, 'bin', 'skilltree.js'), 'dev', fixture.module, '-p', '0', ...flags],
    {
      cwd: fixture.dir,
      env: { ...process.env, ...env, NODE_ENV: 'development' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child = proc;
  let out = '';
  let err = '';
  proc.stderr!.on('data', (chunk) => {
    err += String(chunk);
  });
  // The URL once it is printed, however long a busy machine takes (the test's timeout bounds it).
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (chunk) => {
      out += String(chunk);
      const url = /skilltree playground: (\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    proc.once('exit', (code) => {
      reject(new Error(`skilltree dev exited with ${code}.\n${err}`));
    });
  });
}

async function post(url: string, path: string, body: unknown) {
  const res = await fetch(new URL(path, url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

const state = async (url: string): Promise<DevState> => (await fetch(new URL('/api/state', url))).json();

const steps = [
  { toolCalls: [{ name: 'read_skill', arguments: { name: 'notes' } }] },
  { toolCalls: [{ name: 'add_note', arguments: { text: 'buy milk' } }] },
  { text: 'Noted: buy milk.' },
];

describe('skilltree dev: the Cost view', () => {
  it("lists each model call's usage from the wire, priced by the model's name, with totals", async () => {
    const env = await local.start(steps);
    const url = await startDev(['--model', 'openai:gpt-4.1'], env);
    expect((await post(url, '/api/send', { text: 'Remember to buy milk' })).status).toBe(200);
    const { cost } = await state(url);
    const wire = local.server.usages;
    expect(wire).toHaveLength(3);
    expect(wire.some((u) => u.prompt_tokens_details.cached_tokens > 0)).toBe(true);
    const price = PRICES.models['gpt-4.1'];
    expect(cost.price).toEqual({ price, label: `gpt-4.1, list prices of ${PRICES.models['gpt-4.1'].asOf}` });
    expect(cost.unreported).toBe(0);
    expect(cost.steps.map((s) => [s.turn, s.step, s.usage])).toEqual(
      wire.map((u, i) => [
        1,
        i + 1,
        {
          inputTokens: u.prompt_tokens,
          outputTokens: u.completion_tokens,
          cacheReadTokens: u.prompt_tokens_details.cached_tokens,
        },
      ]),
    );
    const dollars = (u: (typeof wire)[number]) =>
      ((u.prompt_tokens - u.prompt_tokens_details.cached_tokens) * price.input +
        u.prompt_tokens_details.cached_tokens * (price.cacheRead ?? price.input) +
        u.completion_tokens * price.output) /
      1e6;
    for (const [i, s] of cost.steps.entries()) expect(s.cost).toBeCloseTo(dollars(wire[i]), 12);
    const sum = (pick: (u: (typeof wire)[number]) => number) => wire.reduce((n, u) => n + pick(u), 0);
    expect(cost.total.usage).toEqual({
      inputTokens: sum((u) => u.prompt_tokens),
      outputTokens: sum((u) => u.completion_tokens),
      cacheReadTokens: sum((u) => u.prompt_tokens_details.cached_tokens),
    });
    expect(cost.total.cost).toBeCloseTo(sum(dollars), 12);

    // A reset starts the list over.
    expect((await post(url, '/api/reset', {})).status).toBe(200);
    expect((await state(url)).cost.steps).toEqual([]);
  });

  it('--price sets the price', async () => {
    const env = await local.start([{ text: 'Hi.' }]);
    const url = await startDev(['--model', 'openai:my-model', '--price', '2,8'], env);
    await post(url, '/api/send', { text: 'hi' });
    const { cost } = await state(url);
    expect(cost.price).toEqual({ price: { input: 2, output: 8 }, label: '--price' });
    const [usage] = local.server.usages;
    expect(cost.total.cost).toBeCloseTo((usage.prompt_tokens * 2 + usage.completion_tokens * 8) / 1e6, 12);
  });

  it('without a known price the steps carry no estimate', async () => {
    const env = await local.start([{ text: 'Hi.' }]);
    const url = await startDev(['--model', 'openai:my-model'], env);
    await post(url, '/api/send', { text: 'hi' });
    const { cost } = await state(url);
    expect(cost.price).toBeNull();
    expect(cost.steps).toHaveLength(1);
    expect(cost.steps[0].cost).toBeNull();
    expect(cost.total.cost).toBeNull();
  });
});
