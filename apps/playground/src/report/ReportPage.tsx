/**
 * The playground's report page (`#report`): open an eval report's JSON (pick or drop the file) and
 * read it. Nothing leaves the browser.
 */
import type { EvalReport as Report } from '@skilltree/evals';
import { useState } from 'react';
import { EvalReport } from './EvalReport.js';

/** The report in `text`, or why it is not one. */
export function parseReport(text: string): { report: Report } | { error: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { error: `Not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const r = data as Partial<Report> | null;
  if (!r || typeof r !== 'object' || r.format !== 'skilltree-eval-report') {
    return {
      error:
        'Not an eval report: write one with skilltree eval <file> --report report.json, or writeReport(report, "report.json").',
    };
  }
  if (r.version !== 1)
    return { error: `An eval report of version ${String(r.version)}; this playground reads version 1.` };
  if (!Array.isArray(r.variants) || !Array.isArray(r.cases) || !Array.isArray(r.metrics)) {
    return { error: 'The report is incomplete (no variants, cases or metrics).' };
  }
  return { report: r as Report };
}

/** A file's text (FileReader, which every browser and jsdom has). */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

export function ReportPage() {
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<string | null>(null);
  const open = async (file: Blob | undefined) => {
    if (!file) return;
    const parsed = parseReport(await readText(file));
    if ('error' in parsed) {
      setError(parsed.error);
      setReport(null);
    } else {
      setError(null);
      setReport(parsed.report);
    }
  };
  return (
    <div className="app report-page">
      <header className="topbar">
        <h1>
          skilltree <span className="muted">eval report</span>
        </h1>
        <a href="#playground" className="muted small">
          back to the playground
        </a>
      </header>
      <main
        className="report-main"
        onDragOver={(e) => e.preventDefault()}
        onDrop={(e) => {
          e.preventDefault();
          void open(e.dataTransfer.files[0]);
        }}
      >
        <label className="report-open">
          Open a report (JSON):{' '}
          <input type="file" accept=".json,application/json" onChange={(e) => void open(e.target.files?.[0])} />
          <span className="muted small"> or drop it here</span>
        </label>
        {error ? (
          <div className="banner banner-error" role="alert">
            {error}
          </div>
        ) : null}
        {report ? <EvalReport report={report} /> : null}
      </main>
    </div>
  );
}
