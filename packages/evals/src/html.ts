/**
 * The report as one self-contained HTML page: no scripts, no external assets, every value escaped.
 * The summary table first; then each case, each variant, each trial, with its transcript and the
 * requests the model received one click away (`<details>`).
 */
import type { Message, ModelRequest } from '@skilltree/core';
import {
  type ChangeTone,
  formatAttribution,
  formatCall,
  formatStat,
  formatThresholdResult,
  formatValue,
  formatVariantHeading,
  summaryNotes,
  summaryRows,
} from './format.js';
import type { CaseReport, EvalReport, TrialReport } from './report.js';
import type { Metric } from './score.js';
import { textOf } from './text.js';

/** Text as HTML: `& < > " '` escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const e = (value: unknown) =>
  escapeHtml(typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value)));

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:24px;color:#1d1d1f;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
table{border-collapse:collapse;margin:8px 0}th,td{padding:3px 10px;border-bottom:1px solid #e5e5e5;text-align:right}
th:first-child,td:first-child{text-align:left}thead th{border-bottom:2px solid #ccc}
.pass{color:#0a7a2f}.fail{color:#b3261e}.muted{color:#6e6e73}.up{color:#0a7a2f}.down{color:#b3261e}
details{margin:4px 0 4px 12px}summary{cursor:pointer}pre{white-space:pre-wrap;word-break:break-word;background:#f6f6f8;padding:8px;border-radius:4px;margin:4px 0}
.msg{border-left:3px solid #ccc;padding:2px 8px;margin:6px 0}.user{border-color:#3a6df0}.assistant{border-color:#0a7a2f}.tool{border-color:#a0a0a0}.err{border-color:#b3261e}
.role{font-weight:600;font-size:12px;text-transform:uppercase;color:#6e6e73}
`;

/** The class a change is shown with: green up, red down, muted when not compared. */
const TONE_CLASS: Record<ChangeTone, string> = { better: 'up', worse: 'down', even: '', 'not-compared': 'muted' };

function summary(report: EvalReport): string {
  const head = report.variants.map((v, i) => `<th>${e(v.name)}</th>${i > 0 ? '<th>Δ</th>' : ''}`).join('');
  const summary = summaryRows(report.variants, report.metrics);
  const rows = summary.map(({ metric: m, cells }) => {
    const title = `title="${e(m.description ?? '')}"`;
    const tds = cells.map(({ text, change }) => {
      const value = `<td ${title}>${e(text)}</td>`;
      if (change === undefined) return value;
      return `${value}<td>${change ? `<span class="${TONE_CLASS[change.tone]}">${e(change.text)}</span>` : ''}</td>`;
    });
    return `<tr><td ${title}>${e(m.id)}</td>${tds.join('')}</tr>`;
  });
  const notes = summaryNotes(report.variants, summary);
  return `<table data-summary><thead><tr><th>metric</th>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>${notes.map((n) => `<p class="muted">${e(n)}</p>`).join('')}`;
}

function message(m: Message): string {
  const calls =
    m.role === 'assistant' && m.toolCalls?.length
      ? m.toolCalls.map((c) => `<pre>→ ${e(c.name)}(${e(JSON.stringify(c.input))})</pre>`).join('')
      : '';
  const label = m.role === 'tool' ? `tool · ${m.name}${m.isError ? ' · error' : ''}` : m.role;
  const text = textOf(m);
  return `<div class="msg ${m.role}${m.role === 'tool' && m.isError ? ' err' : ''}"><div class="role">${e(label)}</div>${text ? `<pre>${e(text)}</pre>` : ''}${calls}</div>`;
}

function request(r: ModelRequest, i: number): string {
  const tools = r.tools.map((t) => t.name).join(', ');
  const cost = r.attribution ? ` · ${e(formatAttribution(r.attribution))}` : '';
  return `<details><summary>request ${i + 1} · ${r.messages.length} messages · tools: ${e(tools || 'none')}${cost}</summary>
<div class="role">system</div><pre>${e(r.system)}</pre><div class="role">context</div><pre>${e(r.context)}</pre>
<div class="role">messages</div>${r.messages.map(message).join('')}
<details><summary>tools (JSON)</summary><pre>${e(r.tools)}</pre></details></details>`;
}

function trial(t: TrialReport, metrics: readonly Metric[]): string {
  const ok = t.scores.success === 1;
  const mark = t.error
    ? `<span class="fail">! ${e(t.error.kind)}</span>`
    : ok
      ? '<span class="pass">✓</span>'
      : '<span class="fail">✗</span>';
  const scores = metrics
    .filter((m) => typeof t.scores[m.id] === 'number')
    .map((m) => `<tr><td>${e(m.id)}</td><td>${e(formatValue(t.scores[m.id], m))}</td></tr>`)
    .join('');
  const notes = t.notes.length > 0 ? `<ul>${t.notes.map((n) => `<li>${e(n)}</li>`).join('')}</ul>` : '';
  return `<details data-trial="${t.trial}"><summary>#${t.trial} ${mark} ${e(t.model)} · ${t.steps} steps · ${e(formatValue(t.latencyMs, { unit: 'ms' }))}${t.notes[0] ? ` · <span class="muted">${e(t.notes[0])}</span>` : ''}</summary>
${t.error ? `<pre class="fail">${e(t.error.message)}</pre>` : ''}${notes}
<p>reads: ${e(t.reads.map((r) => r.name + (r.ok ? '' : ' (refused)')).join(', ') || 'none')}${t.preloaded.length ? ` · preloaded: ${e(t.preloaded.join(', '))}` : ''}
· tools: ${e(t.toolCalls.map(formatCall).join(', ') || 'none')}${t.files?.some((f) => f.length) ? ` · files: ${e(t.files.flat().join(', '))}` : ''}</p>
${t.attribution ? `<p data-attribution>what each part cost over ${t.requests.length} requests: ${e(formatAttribution(t.attribution))}</p>` : ''}
<div class="role">final reply</div><pre>${e(t.text || '(none)')}</pre>
<table>${scores}</table>
<details data-transcript><summary>transcript (${t.transcript.length} messages)</summary>${t.transcript.map(message).join('')}</details>
<details data-requests><summary>requests (${t.requests.length})</summary>${t.requests.map(request).join('')}</details>
<details><summary>stores at the end</summary><pre>${e(t.stores)}</pre></details>
</details>`;
}

function caseSection(c: CaseReport, report: EvalReport): string {
  const success = report.metrics.find((m) => m.id === 'success');
  const line = report.variants
    .map((v) => `${e(v.name)} ${e(success ? formatStat(c.variants[v.name]?.metrics.success, success) : '')}`)
    .join(' · ');
  const variants = report.variants
    .map((v) => {
      const cv = c.variants[v.name];
      if (!cv) return '';
      const metrics = report.metrics
        .filter((m) => cv.metrics[m.id])
        .map((m) => `${e(m.id)} ${e(formatStat(cv.metrics[m.id], m))}`)
        .join(' · ');
      return `<details data-variant="${e(v.name)}"><summary><b>${e(v.name)}</b> <span class="muted">${metrics}</span></summary>${cv.trials.map((t) => trial(t, report.metrics)).join('')}</details>`;
    })
    .join('');
  return `<details class="case" data-case="${e(c.name)}"><summary><b>${e(c.name)}</b> <span class="muted">success: ${line}</span></summary>
<div class="role">messages</div>${c.messages.map((m) => `<pre>${e(m)}</pre>`).join('')}
<details><summary>expectations</summary><pre>${e(c.expect)}</pre></details>${variants}</details>`;
}

/** The report as a self-contained HTML page. */
export function renderHtml(report: EvalReport): string {
  const thresholds = report.thresholds.length
    ? `<h2>Thresholds</h2><ul>${report.thresholds.map((t) => `<li class="${t.passed ? 'pass' : 'fail'}">${e(formatThresholdResult(t))}</li>`).join('')}</ul>`
    : '';
  const problems = report.problems.length
    ? `<h2>Problems</h2><ul>${report.problems.map((p) => `<li class="fail">${e(p)}</li>`).join('')}</ul>`
    : '';
  const deltas = report.deltas.filter((d) => d.change !== 0);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(report.name)} · skilltree eval</title><style>${STYLE}</style></head>
<body>
<h1>${e(report.name)} <span class="${report.passed ? 'pass' : 'fail'}">${report.passed ? 'passed' : 'FAILED'}</span></h1>
<p class="muted">${e(report.startedAt)} · ${e(formatValue(report.durationMs, { unit: 'ms' }))} · ${report.cases.length} cases · ${report.variants.map((v) => e(formatVariantHeading(v))).join(' · ')}</p>
<h2>Summary</h2>${summary(report)}
${deltas.length ? `<h2>Changes against ${e(report.variants[0].name)}</h2><ul>${deltas.map((d) => `<li>${e(d.variant)}: ${e(d.text)}</li>`).join('')}</ul>` : ''}
${thresholds}${problems}
<h2>Cases</h2>${report.cases.map((c) => caseSection(c, report)).join('\n')}
</body></html>
`;
}
