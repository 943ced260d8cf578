/**
 * `skilltree eval`, end to end: the real binary runs an eval file; thresholds set the exit code;
 * --record then --replay keep a real adapter's conversations (a local OpenAI-compatible server)
 * and replay them with no server and no key.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatCompletionsLine, openAIServerPerTest } from './helpers/e2e.js';
import { runCli } from './helpers/run-cli.js';

const EVAL = 'test/fixtures/shop.eval.tsx';
const local = openAIServerPerTest();

describe('skilltree eval', () => {
  it('runs every case on every variant: progress on stderr, the table on stdout, exit 0', async () => {
    const result = await runCli(['eval', EVAL]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('shop: 4 trials (2 cases × careless, oracle)');
    expect(result.stderr).toMatch(/\[4\/4\] [✓✗] /);
    expect(result.stdout).toMatch(/^shop: 2 cases × 2 variants, 4 trials/);
    expect(result.stdout).toMatch(/selection\.recall\s+0\.50\s+1\.00\s+\+0\.50/);
    expect(result.stdout).toContain('  ✓ selection.recall@oracle >= 0.9 [oracle]');
    expect(result.stdout.trimEnd().endsWith('passed')).toBe(true);
  });

  it('a threshold that fails exits 1 and says which, by how much', async () => {
    const result = await runCli(['eval', EVAL, '--threshold', 'success >= 0.9', '--variant', 'careless']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  ✗ success >= 0.9 [careless]: careless: success is 0, needs >= 0.9');
    expect(result.stdout).toContain('no variant "oracle" (variants: careless)');
    expect(result.stdout.trimEnd().endsWith('FAILED')).toBe(true);
  });

  it('--json prints the report; --report writes HTML and JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-eval-'));
    const html = join(dir, 'report.html');
    const json = join(dir, 'report.json');
    const result = await runCli([
      'eval',
      EVAL,
      '--json',
      '--case',
      'refund',
      '--trials',
      '2',
      '--report',
      html,
      '--report',
      json,
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ format: 'skilltree-eval-report', name: 'shop', passed: true });
    expect(report.cases.map((c: { name: string }) => c.name)).toEqual(['refund']);
    expect(report.cases[0].variants.oracle.trials).toHaveLength(2);
    expect(readFileSync(html, 'utf8')).toContain('<!doctype html>');
    expect(JSON.parse(readFileSync(json, 'utf8')).name).toBe('shop');
    expect(result.stderr).toContain(`Wrote ${html}`);
  });

  it('--model with --record calls the adapter and keeps each conversation; --replay needs no server and no key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-eval-rec-'));
    const env = await local.start([
      { toolCalls: [{ name: 'read_skill', arguments: { name: 'refunds' } }] },
      { toolCalls: [{ name: 'refund_order', arguments: { id: '7' } }] },
      { text: 'Refunded order 7.' },
    ]);
    const recorded = await runCli(['eval', EVAL, '--case', 'refund', '--model', 'openai:gpt-4.1', '--record', dir], {
      env: { ...env, EVAL_NO_MODEL: '1' },
    });
    expect(recorded.stderr).toBe(
      `shop: 1 trials (1 cases × default)\n${chatCompletionsLine(env, 'gpt-4.1')}[1/1] ✓ refund · default #1 · 3 steps · ` +
        recorded.stderr.split(' · ').at(-1),
    );
    expect(recorded.code).toBe(1); // the fixture's threshold names a variant this run leaves out
    expect(local.server.requests).toHaveLength(3);
    const file = join(dir, 'shop', 'default', 'refund-1.json');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).not.toContain('test-key');
    const replayed = await runCli(['eval', EVAL, '--case', 'refund', '--replay', dir, '--json'], {
      env: { EVAL_NO_MODEL: '1' },
    });
    const report = JSON.parse(replayed.stdout);
    expect(report.cases[0].variants.default.trials[0]).toMatchObject({
      model: 'openai:gpt-4.1',
      text: 'Refunded order 7.',
    });
    expect(report.variants[0].metrics.success.mean).toBe(1);
    expect(report.problems).toEqual([]);
  });

  it('a replay whose recording is missing says where it looked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-eval-none-'));
    const result = await runCli(['eval', EVAL, '--replay', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /The eval "shop" could not run: No recording at .*careless\/refund-1\.json: record it first/,
    );
  });

  it('without a model anywhere it says how to pass one', async () => {
    const result = await runCli(['eval', EVAL], { env: { EVAL_NO_MODEL: '1' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /No model for variant "default".*Pass --model \(e\.g\. --model anthropic:claude-haiku-4-5\)/s,
    );
  });

  it('usage errors: no file, --record with --replay (exit 2); a module without suites (exit 1)', async () => {
    const missing = await runCli(['eval']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Missing eval file: skilltree eval <file.eval.tsx>.');
    const both = await runCli(['eval', EVAL, '--record', 'a', '--replay', 'b']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--record and --replay exclude each other');
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-eval-empty-'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(dir, 'none.ts'), 'export const x = 1;\n');
    const none = await runCli(['eval', join(dir, 'none.ts')]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/exports no eval suite\. Export one: "export default defineEval/);
  });

  it('help lists the command and its flags', async () => {
    const result = await runCli(['eval', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: skilltree eval <file\.eval\.tsx> \[options\]/);
    for (const flag of [
      '--trials',
      '--concurrency',
      '--case',
      '--variant',
      '--threshold',
      '--report',
      '--record',
      '--replay',
      '--model',
      '--json',
    ]) {
      expect(result.stdout).toContain(flag);
    }
    expect(result.stdout).not.toContain('--max-loaded-skills');
  });
});
