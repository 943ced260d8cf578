/**
 * An eval report (the JSON `runEval` / `skilltree eval --report x.json` writes): the summary with
 * the change of each variant from the first, the thresholds, then every case; a case opens to its
 * trials, and a trial to its transcript.
 */
import { contextChangeLine } from '@skilltree/core/provider';
import type { CaseReport, EvalReport as Report, TrialReport } from '@skilltree/evals';
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
} from '@skilltree/evals/format';
import { useState } from 'react';
import { Panel } from '../panels/Panel.js';

type Metric = Report['metrics'][number];

/** The class a change is shown with: green for the better, red for the worse, muted when not compared. */
const TONE_CLASS: Record<ChangeTone, string> = { better: 'good', worse: 'bad', even: '', 'not-compared': 'muted' };

/**
 * The lines a `context-changed` part of a report reads as: its typed changes rendered by core, or
 * (a report written before changes were typed) the lines it holds. Malformed changes are skipped.
 */
function contextLines(part: Record<string, unknown>): string[] {
  if (Array.isArray(part.lines)) return part.lines.map(String);
  if (!Array.isArray(part.changes)) return [];
  return (part.changes as Record<string, unknown>[]).flatMap((c) => {
    if (!c || typeof c !== 'object' || typeof c.skill !== 'string') return [];
    if (c.kind === 'line' && typeof c.text === 'string')
      return [contextChangeLine({ kind: 'line', skill: c.skill, text: c.text })];
    if (c.kind === 'loaded' || c.kind === 'unloaded') return [contextChangeLine({ kind: c.kind, skill: c.skill })];
    return [];
  });
}

/**
 * A message's text as the model read it: a report written before messages had parts holds it as a
 * string; today's hold parts (text, then each contextChanged line on a line of its own, a file as
 * `[file: name]`; reasoning is not text). A report is a file from anywhere: parts of another shape
 * are skipped.
 */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const part of content as Record<string, unknown>[]) {
    if (!part || typeof part !== 'object') continue;
    if (part.type === 'text') out += String(part.text);
    else if (part.type === 'context-changed') {
      const lines = contextLines(part).join('\n');
      if (lines !== '') out = out === '' ? lines : `${out}\n${lines}`;
    } else if (part.type === 'file') out += `[file: ${String(part.filename ?? part.mediaType)}]`;
  }
  return out;
}

function Summary({ report }: { report: Report }) {
  const rows = summaryRows(report.variants, report.metrics);
  return (
    <>
      <table className="table report-summary" data-summary>
        <thead>
          <tr>
            <th>metric</th>
            {report.variants.map((v, i) => [
              <th key={v.name} className="num">
                {v.name}
              </th>,
              i > 0 ? (
                <th key={`${v.name}-delta`} className="num">
                  Δ
                </th>
              ) : null,
            ])}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ metric: m, cells }) => (
            <tr key={m.id} data-metric={m.id} title={m.description}>
              <td>{m.id}</td>
              {cells.map(({ text, change }, i) => {
                const name = report.variants[i].name;
                return [
                  <td key={name} className="num">
                    {text}
                  </td>,
                  change !== undefined ? (
                    <td key={`${name}-delta`} className={`num ${change ? TONE_CLASS[change.tone] : 'muted'}`}>
                      {change?.text ?? ''}
                    </td>
                  ) : null,
                ];
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {summaryNotes(report.variants, rows).map((note) => (
        <p key={note} className="muted small">
          {note}
        </p>
      ))}
    </>
  );
}

function Trial({ trial, metrics }: { trial: TrialReport; metrics: readonly Metric[] }) {
  const [open, setOpen] = useState(false);
  const ok = trial.scores.success === 1;
  return (
    <li className="report-trial" data-trial={trial.trial}>
      <button type="button" className="ghost" onClick={() => setOpen(!open)} aria-expanded={open}>
        #{trial.trial} {trial.error ? `! ${trial.error.kind}` : ok ? '✓' : '✗'} · {trial.steps} steps ·{' '}
        {formatValue(trial.latencyMs, { unit: 'ms' })}
      </button>
      {trial.notes.length > 0 ? (
        <ul className="small muted">
          {trial.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      {open ? (
        <div className="report-trial-body">
          {trial.error ? <pre className="warn">{trial.error.message}</pre> : null}
          <p className="small">
            reads: {trial.reads.map((r) => r.name).join(', ') || 'none'} · tools:{' '}
            {trial.toolCalls.map(formatCall).join(', ') || 'none'} ·{' '}
            {metrics
              .filter((m) => typeof trial.scores[m.id] === 'number')
              .slice(0, 6)
              .map((m) => `${m.id} ${formatValue(trial.scores[m.id], m)}`)
              .join(' · ')}
          </p>
          <div data-transcript>
            {trial.transcript.map((m, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a finished trial's transcript never reorders
              <div key={i} className={`msg msg-${m.role}`}>
                <div className="msg-label">{m.role === 'tool' ? `tool · ${m.name}` : m.role}</div>
                <pre className="msg-text">{textOf(m.content)}</pre>
                {m.role === 'assistant'
                  ? (m.toolCalls ?? []).map((c) => (
                      <pre key={c.id} className="tool-call">
                        → {c.name}({JSON.stringify(c.input)})
                      </pre>
                    ))
                  : null}
              </div>
            ))}
          </div>
          {trial.attribution ? (
            <p className="small" data-attribution>
              what each part cost over {trial.requests.length} requests: {formatAttribution(trial.attribution)}
            </p>
          ) : null}
          <p className="small muted">{trial.requests.length} requests (the HTML report shows each in full)</p>
        </div>
      ) : null}
    </li>
  );
}

function Case({ evalCase, report }: { evalCase: CaseReport; report: Report }) {
  const [open, setOpen] = useState(false);
  const success = report.metrics.find((m) => m.id === 'success');
  return (
    <>
      <tr data-case={evalCase.name}>
        <td>
          <button type="button" className="ghost" onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? '▾' : '▸'} {evalCase.name}
          </button>
        </td>
        {report.variants.map((v) => (
          <td key={v.name} className="num">
            {formatStat(evalCase.variants[v.name]?.metrics.success, success)}
          </td>
        ))}
      </tr>
      {open ? (
        <tr className="report-case-body">
          <td colSpan={report.variants.length + 1}>
            {evalCase.messages.map((m) => (
              <pre key={m}>{m}</pre>
            ))}
            {report.variants.map((v) => (
              <div key={v.name} data-variant={v.name}>
                <strong>{v.name}</strong>
                <ul className="report-trials">
                  {(evalCase.variants[v.name]?.trials ?? []).map((t) => (
                    <Trial key={t.trial} trial={t} metrics={report.metrics} />
                  ))}
                </ul>
              </div>
            ))}
          </td>
        </tr>
      ) : null}
    </>
  );
}

/** The whole report. */
export function EvalReport({ report }: { report: Report }) {
  const changes = report.deltas.filter((d) => d.change !== 0);
  return (
    <Panel
      id="eval-report"
      title={`Eval: ${report.name}`}
      extra={<span className={report.passed ? 'good' : 'bad'}>{report.passed ? 'passed' : 'FAILED'}</span>}
    >
      <p className="muted small">
        {report.startedAt} · {report.cases.length} cases · {report.variants.map(formatVariantHeading).join(' · ')}
      </p>
      <Summary report={report} />
      {changes.length > 0 ? (
        <ul className="small" data-deltas>
          {changes.map((d) => (
            <li key={`${d.variant}-${d.metric}`}>
              {d.variant}: {d.text}
            </li>
          ))}
        </ul>
      ) : null}
      {report.thresholds.length > 0 ? (
        <ul data-thresholds>
          {report.thresholds.map((t) => (
            <li key={`${t.index}-${t.variant}`} className={t.passed ? 'good' : 'bad'}>
              {formatThresholdResult(t)}
            </li>
          ))}
        </ul>
      ) : null}
      {report.problems.length > 0 ? (
        <ul data-problems>
          {report.problems.map((p) => (
            <li key={p} className="bad">
              {p}
            </li>
          ))}
        </ul>
      ) : null}
      <table className="table report-cases">
        <thead>
          <tr>
            <th>case (success)</th>
            {report.variants.map((v) => (
              <th key={v.name} className="num">
                {v.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {report.cases.map((c) => (
            <Case key={c.name} evalCase={c} report={report} />
          ))}
        </tbody>
      </table>
    </Panel>
  );
}
