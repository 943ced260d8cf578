import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '@skilltree/core';
import {
  type EvalReport,
  formatTable,
  oracleModel,
  progressPrinter,
  renderHtml,
  runEval,
  writeReport,
} from '@skilltree/evals';
import { beforeAll, describe, expect, it } from 'vitest';
import { Shop } from './helpers/agents.js';

const HOSTILE = '</pre><script>alert(1)</script><img src=x onerror=alert(2)>';

let report: EvalReport;
beforeAll(async () => {
  report = await runEval({
    name: 'shop <evals>',
    agent: <Shop />,
    cases: [
      {
        name: 'refund',
        messages: 'Refund A-1',
        expect: { reads: ['refunds'], toolCalls: [{ name: 'refund', input: { orderId: 'A-1' } }], text: 'refunded' },
      },
      { name: `hostile ${HOSTILE}`, messages: HOSTILE, expect: { reads: [] } },
    ],
    variants: [
      {
        name: 'scripted',
        model: () =>
          scriptedModel([{ toolCalls: [{ name: 'read_skill', input: { name: 'billing' } }] }, { text: HOSTILE }]),
      },
      { name: 'oracle', model: oracleModel() },
    ],
    price: 'claude-haiku-4-5',
    thresholds: ['selection.recall >= 0.9'],
  });
});

describe('the table', () => {
  it('one row per metric, a column per variant with the change from the first; cases, thresholds, verdict', () => {
    const table = formatTable(report);
    const lines = table.split('\n');
    expect(lines[0]).toBe('shop <evals>: 2 cases × 2 variants, 4 trials');
    expect(lines[2]).toMatch(/^metric\s+scripted\s+oracle\s+Δ$/);
    expect(lines.find((l) => l.startsWith('success '))).toMatch(/^success\s+0\.50\s+1\.00\s+\+0\.50$/);
    expect(lines.find((l) => l.startsWith('selection.recall'))).toMatch(
      /^selection\.recall\s+0\.00\s+1\.00\s+\+1\.00$/,
    );
    // Both variants' counts are estimates of one estimator: marked, and compared with each other.
    expect(lines.find((l) => l.startsWith('cost'))).toMatch(/^cost\s+~\$\S+\s+~\$\S+\s+[+−]\d+(\.\d)?%$/);
    expect(table).toContain('~ estimated from characters by a scripted model, not counted by a provider');
    expect(table).toContain('success by case');
    expect(table).toContain('  oracle: selection.recall 0.00 → 1.00 (+1.00)');
    expect(table).toContain('  ✗ selection.recall >= 0.9 [scripted]: scripted: selection.recall is 0, needs >= 0.9');
    expect(table).toContain('  ✓ selection.recall >= 0.9 [oracle]');
    expect(table.trimEnd().endsWith('FAILED')).toBe(true);
  });

  it('shows the metrics asked for, in that order', () => {
    const rows = formatTable(report, { metrics: ['steps', 'success'], summaryOnly: true }).split('\n');
    expect(rows.slice(3, 5).map((l) => l.split(/\s+/)[0])).toEqual(['steps', 'success']);
    expect(rows.join('\n')).not.toContain('success by case');
  });
});

describe('the HTML report', () => {
  it('is one self-contained page: no script, no stylesheet or image from elsewhere', () => {
    const html = renderHtml(report);
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<(script|img|link|iframe|object|embed|svg)\b/i);
    expect(html).not.toMatch(/\b(src|href)\s*=\s*"/i);
    expect(html).not.toMatch(/@import|url\(/i);
  });

  it('escapes everything the model, the user and the suite wrote', () => {
    const html = renderHtml(report);
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain('&#60;/pre&#62;&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('<title>shop &#60;evals&#62; · skilltree eval</title>');
  });

  it('has per case, per variant, per trial sections, with the transcript and each request one click away', () => {
    const html = renderHtml(report);
    expect(html).toContain('data-case="refund"');
    expect(html.match(/data-variant="oracle"/g)).toHaveLength(2);
    expect(html).toContain('<details data-transcript><summary>transcript (6 messages)</summary>');
    expect(html).toContain('<details data-requests><summary>requests (3)</summary>');
    expect(html).toContain('request 2 · 3 messages · tools: read_skill, refund');
    expect(html).toContain('Refunds take 5 days.');
    expect(html).toMatch(/selection\.recall[\s\S]*?\+1\.00/);
  });

  it('names each variant in its heading and lists each threshold with its verdict, as the playground does', () => {
    const html = renderHtml(report);
    expect(html).toContain(' · 2 cases · scripted (scripted, 2 trials) · oracle (scripted, 2 trials)</p>');
    expect(html).toContain(
      '<li class="fail">✗ selection.recall &#62;= 0.9 [scripted]: scripted: selection.recall is 0, needs &#62;= 0.9</li>',
    );
    expect(html).toContain('<li class="pass">✓ selection.recall &#62;= 0.9 [oracle]</li>');
  });

  it('writeReport writes HTML for .html and JSON otherwise', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-report-'));
    writeReport(report, join(dir, 'out', 'report.html'));
    writeReport(report, join(dir, 'report.json'));
    expect(readFileSync(join(dir, 'out', 'report.html'), 'utf8')).toContain('<!doctype html>');
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(json).toMatchObject({ format: 'skilltree-eval-report', version: 1, name: 'shop <evals>', passed: false });
    expect(json.cases[0].expect).toEqual({
      reads: ['refunds'],
      toolCalls: [{ name: 'refund', input: { orderId: 'A-1' } }],
      text: 'refunded',
    });
  });
});

describe('progress', () => {
  it('off a terminal: a line per trial, with the mark and why it failed', async () => {
    const lines: string[] = [];
    await runEval(
      {
        name: 'p',
        agent: <Shop />,
        model: oracleModel(),
        cases: [{ name: 'r', messages: 'x', expect: { reads: ['refunds'], text: 'nope' } }],
      },
      { onProgress: progressPrinter({ write: (s) => lines.push(s) }) },
    );
    expect(lines[0]).toBe('p: 1 trials (1 cases × default)\n');
    expect(lines[1]).toMatch(/^\[1\/1\] ✓ r · default #1 · 2 steps · \d+ms\n$/);
  });

  it('on a terminal: one line, rewritten', async () => {
    const out: string[] = [];
    await runEval(
      {
        name: 'p',
        agent: <Shop />,
        model: () => scriptedModel([{ text: 'no' }]),
        cases: [{ name: 'r', messages: 'x', expect: { text: 'yes' } }],
        trials: 2,
      },
      { onProgress: progressPrinter({ write: (s) => out.push(s), isTTY: true }), concurrency: 1 },
    );
    const clear = '\r\x1b[K';
    expect(out[1].startsWith(clear)).toBe(true);
    expect(out[1].slice(clear.length)).toMatch(
      /^\[1\/2\] ✗ r · default #1 · 1 steps · \d+ms · success: the reply lacks "yes"$/,
    );
    expect(out.at(-1)).toBe('\r\x1b[K');
  });
});
