import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EvalReport, oracleModel } from '@skilltree/evals';
import { describeEval } from '@skilltree/evals/vitest';
import { describe, expect, it } from 'vitest';
import { Shop } from './helpers/agents.js';

const dir = mkdtempSync(join(tmpdir(), 'skilltree-describe-'));
let seen: EvalReport | undefined;

// A suite declared with describeEval, in this very file: its tests run with the others below.
describeEval(
  {
    name: 'describeEval itself',
    agent: <Shop />,
    model: oracleModel(),
    cases: [
      {
        name: 'refund',
        messages: 'Refund A-1',
        expect: { reads: ['refunds'], toolCalls: [{ name: 'refund', input: { orderId: 'A-1' } }] },
      },
      { name: 'hello', messages: 'Hi', expect: { reads: [] } },
    ],
    variants: [{ name: 'lru' }, { name: 'all-loaded', preload: 'all' }],
    thresholds: ['success >= 1', 'selection.recall@lru >= 0.9'],
  },
  {
    print: false,
    reports: [join(dir, 'report.json'), join(dir, 'report.html')],
    onReport: (report) => {
      seen = report;
    },
  },
);

/** Runs the fixture eval file in a vitest of its own. */
function runFixture(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const bin = join(createRequire(import.meta.url).resolve('vitest/package.json'), '..', 'vitest.mjs');
  const config = join(import.meta.dirname, 'fixtures', 'vitest.config.ts');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'run', '--config', config, '--reporter=verbose'], {
      env: { ...process.env, ...env, FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('describeEval', () => {
  it('hands over the report and writes the report files', () => {
    expect(seen?.variants.map((v) => v.name)).toEqual(['lru', 'all-loaded']);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).name).toBe('describeEval itself');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('<h1>describeEval itself');
  });

  it('a threshold that holds passes the run; one that does not fails it (non-zero exit), naming it', async () => {
    const passing = await runFixture({ EVAL_FIXTURE: 'pass' });
    expect(passing.output).toMatch(/✓ shop\.eval\.tsx > shop > threshold: selection\.recall >= 0\.9/);
    expect(passing.code).toBe(0);
    const failing = await runFixture({ EVAL_FIXTURE: 'fail' });
    expect(failing.code).toBe(1);
    expect(failing.output).toMatch(/× shop\.eval\.tsx > shop > threshold: selection\.recall >= 0\.9/);
    expect(failing.output).toContain('default: selection.recall is 0, needs >= 0.9');
    // The table is printed after the run.
    expect(failing.output).toMatch(/selection\.recall\s+0\.00/);
  }, 60_000);
});
