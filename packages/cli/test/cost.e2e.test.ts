/**
 * The per-turn cost line of `skilltree chat` and `skilltree run`, end to end: the real binary
 * against a local OpenAI-compatible server that reports usage with `cached_tokens`. Every expected
 * figure is computed here from the usage the server put on the wire.
 */
import { PRICES } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { AGENT, chatCompletionsLine, openAIServerPerTest, shoppingSteps } from './helpers/e2e.js';
import type { WireUsage } from './helpers/openai-server.js';
import { runCli } from './helpers/run-cli.js';

const local = openAIServerPerTest();
const openai = local.start;

/** The wire usage of `usages`, summed the way a turn sums its steps. */
function total(usages: WireUsage[]) {
  const sum = (pick: (u: WireUsage) => number) => usages.reduce((n, u) => n + pick(u), 0);
  return {
    inputTokens: sum((u) => u.prompt_tokens),
    cacheReadTokens: sum((u) => u.prompt_tokens_details.cached_tokens),
    outputTokens: sum((u) => u.completion_tokens),
  };
}

/** Dollars for `usage` at `price` (per million tokens), written as the line writes them. */
function priced(usage: ReturnType<typeof total>, price: { input: number; output: number; cacheRead: number }) {
  const uncached = usage.inputTokens - usage.cacheReadTokens;
  const dollars =
    (uncached * price.input + usage.cacheReadTokens * price.cacheRead + usage.outputTokens * price.output) / 1e6;
  return { dollars, text: `$${dollars.toFixed(4)}` };
}

function tokensPart(usage: ReturnType<typeof total>): string {
  const share = Math.round((usage.cacheReadTokens / usage.inputTokens) * 100);
  return `⌁ ${usage.inputTokens.toLocaleString('en-US')} in (${share}% cache read) · ${usage.outputTokens} out`;
}

describe('skilltree run: the cost line', () => {
  it('prints tokens, the cached share and the estimate on stderr, priced by the model name; stdout stays the reply', async () => {
    const env = await openai(shoppingSteps);
    const result = await runCli(['run', AGENT, '-m', 'I want a lamp'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('I added lamp-1 to your cart.\n');
    const usage = total(local.server.usages);
    // Four steps of one tool loop: each request starts with the previous one, so the cache serves a share.
    expect(local.server.usages).toHaveLength(4);
    expect(usage.cacheReadTokens).toBeGreaterThan(0);
    const price = PRICES.models['gpt-4.1'];
    const estimate = priced(usage, { input: price.input, output: price.output, cacheRead: price.cacheRead ?? 0 });
    expect(result.stderr).toContain(
      `  ${tokensPart(usage)} · ≈ ${estimate.text} (gpt-4.1, list prices of ${PRICES.models['gpt-4.1'].asOf})\n`,
    );
    expect(result.stderr).not.toContain('\u001b['); // no colors on a pipe
  });

  it('--price sets the price; one line per turn', async () => {
    const env = await openai([{ text: 'One.' }, { text: 'Two.' }]);
    const result = await runCli(['run', AGENT, '-m', 'a', '-m', 'b', '--price', '3,15,0.3'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Two.\n');
    const lines = result.stderr.split('\n').filter((line) => line.includes('⌁'));
    expect(lines).toHaveLength(2);
    local.server.usages.forEach((wire, i) => {
      const usage = total([wire]);
      const estimate = priced(usage, { input: 3, output: 15, cacheRead: 0.3 });
      expect(lines[i]).toBe(`  ${tokensPart(usage)} · ≈ ${estimate.text} (--price)`);
    });
  });

  it('without a known price prints tokens only and says how to pass --price', async () => {
    const env = await openai(shoppingSteps);
    const result = await runCli(['run', AGENT, '-m', 'lamp', '--model', 'openai:my-model'], { env });
    expect(result.code).toBe(0);
    const usage = total(local.server.usages);
    expect(result.stderr).toContain(`  ${tokensPart(usage)}\n`);
    expect(result.stderr).not.toContain('≈');
    expect(result.stderr).toContain('no list price for openai:my-model: pass --price <model|input,output');
  });

  it('colors the line with FORCE_COLOR, not with NO_COLOR', async () => {
    const env = await openai([{ text: 'Hi.' }, { text: 'Hi.' }]);
    const forced = await runCli(['run', AGENT, '-m', 'hi'], { env: { ...env, FORCE_COLOR: '1' } });
    const line = forced.stderr.split('\n').find((l) => l.includes('⌁')) ?? '';
    expect(line.startsWith('\u001b[2m  ⌁ ')).toBe(true);
    expect(line.endsWith(`(gpt-4.1, list prices of ${PRICES.models['gpt-4.1'].asOf})\u001b[22m`)).toBe(true);
    const plain = await runCli(['run', AGENT, '-m', 'hi'], { env: { ...env, FORCE_COLOR: '1', NO_COLOR: '1' } });
    expect(plain.stderr).toContain('  ⌁ ');
    expect(plain.stderr).not.toContain('\u001b[');
  });

  it('--json adds usage and estimate as fields and prints no cost line', async () => {
    const env = await openai(shoppingSteps);
    const result = await runCli(['run', AGENT, '-m', 'lamp', '--json', '--price', 'claude-haiku-4-5'], { env });
    expect(result.code).toBe(0);
    // The model choice, and openai() saying once that the server has only Chat Completions.
    const [using, ...rest] = result.stderr.split(/(?<=\n)/);
    expect(using).toMatch(/^Using openai:gpt-4\.1 [^\n]*\n$/);
    expect(rest.join('')).toBe(chatCompletionsLine(env, 'gpt-4.1'));
    const out = JSON.parse(result.stdout);
    const usage = total(local.server.usages);
    expect(out.usage).toEqual(usage);
    const price = PRICES.models['claude-haiku-4-5'];
    const estimate = priced(usage, { input: price.input, output: price.output, cacheRead: price.cacheRead ?? 0 });
    expect(out.estimate).toMatchObject({
      currency: 'USD',
      price,
      priceLabel: `claude-haiku-4-5, list prices of ${PRICES.models['claude-haiku-4-5'].asOf}`,
      cacheWrite: 0,
    });
    expect(out.estimate.total).toBeCloseTo(estimate.dollars, 12);
    expect(out.estimate.input + out.estimate.cacheRead + out.estimate.output).toBeCloseTo(estimate.dollars, 12);
  });

  it('--json without a known price has the usage and estimate: null', async () => {
    const env = await openai([{ text: 'Hi.' }]);
    const result = await runCli(['run', AGENT, '-m', 'hi', '--json', '--model', 'openai:my-model'], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(chatCompletionsLine(env, 'my-model'));
    const out = JSON.parse(result.stdout);
    expect(out.usage).toEqual(total(local.server.usages));
    expect(out.estimate).toBeNull();
  });

  it('a turn that fails after some model calls still shows what they used', async () => {
    const env = await openai([
      { toolCalls: [{ name: 'read_skill', arguments: { name: 'shopping' } }] },
      { status: 400, error: 'context too long' },
    ]);
    const result = await runCli(['run', AGENT, '-m', 'I want a lamp'], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(local.server.usages).toHaveLength(1);
    const usage = total(local.server.usages);
    const price = PRICES.models['gpt-4.1'];
    const estimate = priced(usage, { input: price.input, output: price.output, cacheRead: price.cacheRead ?? 0 });
    const line = `  ${tokensPart(usage)} · ≈ ${estimate.text} (gpt-4.1, list prices of ${PRICES.models['gpt-4.1'].asOf})\n`;
    // The line comes before the error, which stays the last line.
    expect(result.stderr).toContain(line);
    expect(result.stderr.indexOf(line)).toBeLessThan(result.stderr.indexOf('skilltree: The turn failed'));
  });

  it('a bad --price is a usage error that lists the choices', async () => {
    const result = await runCli(['run', AGENT, '-m', 'hi', '--price', 'cheap']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--price needs a model from the price table (claude-opus-4-1');
    expect(result.stderr).toContain('got "cheap"');
  });
});

describe('skilltree chat: the cost line', () => {
  it('a turn that fails after some model calls still shows what they used', async () => {
    const env = await openai([
      { toolCalls: [{ name: 'read_skill', arguments: { name: 'shopping' } }] },
      { status: 400, error: 'context too long' },
    ]);
    const result = await runCli(['chat', AGENT], { env, stdin: 'I want a lamp\n' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error: .*context too long/);
    // Only the first call was answered, with usage; the failed one reported none.
    expect(local.server.usages).toHaveLength(1);
    const usage = total(local.server.usages);
    const price = PRICES.models['gpt-4.1'];
    const estimate = priced(usage, { input: price.input, output: price.output, cacheRead: price.cacheRead ?? 0 });
    expect(result.stderr).toContain(
      `  ${tokensPart(usage)} · ≈ ${estimate.text} (gpt-4.1, list prices of ${PRICES.models['gpt-4.1'].asOf})\n`,
    );
  });

  it('prints one line per turn on stderr, the reply stays on stdout', async () => {
    const env = await openai([...shoppingSteps, { text: 'Anything else?' }]);
    const result = await runCli(['chat', AGENT, '--price', 'gpt-4o'], { env, stdin: 'I want a lamp\nthanks\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('agent › I added lamp-1 to your cart.\n');
    expect(result.stdout).not.toContain('⌁');
    const price = PRICES.models['gpt-4o'];
    const cacheRead = price.cacheRead ?? 0;
    const first = total(local.server.usages.slice(0, 4));
    const second = total(local.server.usages.slice(4));
    const label = `(gpt-4o, list prices of ${PRICES.models['gpt-4o'].asOf})`;
    const lines = result.stderr.split('\n').filter((line) => line.includes('⌁'));
    expect(lines).toEqual([
      `  ${tokensPart(first)} · ≈ ${priced(first, { ...price, cacheRead }).text} ${label}`,
      `  ${tokensPart(second)} · ≈ ${priced(second, { ...price, cacheRead }).text} ${label}`,
    ]);
  });
});
