// What the consumer test ran, on which Node, with which versions: written to
// scripts/compatibility.json by `pnpm test:consumer --update`, compared with each run, and rendered
// as the table of docs/compatibility.md (checked by `pnpm test:scripts`). The table can only say
// what CI ran.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './workspace.mjs';

/** The committed record of the last run. */
export const REPORT_FILE = join(root, 'scripts', 'compatibility.json');
/** The page whose table is rendered from it. */
export const DOC_FILE = join(root, 'docs', 'compatibility.md');

export const TABLE_START =
  '<!-- compatibility table: written by `pnpm test:consumer --update` from scripts/compatibility.json -->';
export const TABLE_END = '<!-- end of the compatibility table -->';

/** The packages whose installed version each run records, with what the project does with them. */
export const RECORDED = [
  ['react', 'the agents, the tests'],
  ['zod', 'tool inputs'],
  ['vitest', 'the tests'],
  ['typescript', 'the typecheck (strict, no skipLibCheck)'],
  ['tsx', '`skilltree run` loads agent.tsx'],
  ['ai', "the server's UI message stream, `DefaultChatTransport`"],
  ['@ai-sdk/react', "`useChat`'s `Chat`, against the server (an approval included)"],
  ['@ai-sdk/openai', '`aiSdk()`, against a local OpenAI-compatible server'],
  ['@modelcontextprotocol/sdk', '`<McpTools>`, an in-process server'],
  ['@anthropic-ai/sdk', '`anthropic()`'],
  ['openai', '`openai()`'],
  ['pg', "the Postgres store's conformance suite"],
  ['ioredis', "the Redis store's conformance suite"],
];

/** The version of `name` installed in `project`, or null. */
export function installedVersion(project, name) {
  const file = join(project, 'node_modules', name, 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : null;
}

/**
 * One run's row: what ran under one Node.
 * @typedef {{ node: string, npm: string, sqlite: string, packages: Record<string, string | null> }} NodeRun
 * @typedef {{ runs: NodeRun[], typescript: string[], services: { postgres: string, redis: string } }} Report
 */

const cell = (value) => value ?? '—';

/**
 * The markdown table of a report: one column per Node, one row per dependency.
 * @param {Report} report
 */
export function renderTable(report) {
  const rows = [
    ['', ...report.runs.map((r) => `Node ${r.node.split('.')[0]}`), 'what runs'],
    ['Node', ...report.runs.map((r) => r.node), 'the whole consumer test'],
    ['npm', ...report.runs.map((r) => r.npm), 'installs the project, no `EBADENGINE` allowed'],
    [
      'SQLite store',
      ...report.runs.map((r) => r.sqlite),
      "`sqliteStore`'s conformance suite, `skilltree run --session`",
    ],
    ...RECORDED.map(([name, what]) => [`\`${name}\``, ...report.runs.map((r) => cell(r.packages[name])), what]),
    [
      'TypeScript (every entry point)',
      ...report.runs.map((_, i) => (i === 0 ? report.typescript.join(', ') : '—')),
      'the types of every export of every package',
    ],
    ['PostgreSQL server', ...report.runs.map(() => report.services.postgres), "Debian's `postgresql`"],
    ['Redis server', ...report.runs.map(() => report.services.redis), "Debian's `redis-server`"],
  ];
  const widths = rows[0].map((_, c) => Math.max(3, ...rows.map((row) => row[c].length)));
  const line = (row) => `| ${row.map((v, c) => v.padEnd(widths[c])).join(' | ')} |`;
  return [line(rows[0]), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.slice(1).map(line)].join('\n');
}

/** The table between the markers of the page, or null when the markers are missing. */
export function tableInDoc(markdown) {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start) return null;
  return markdown.slice(start + TABLE_START.length, end).trim();
}

/** The page with its table replaced by the report's. */
export function withTable(markdown, report) {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${DOC_FILE} has no ${TABLE_START} … ${TABLE_END} markers`);
  return `${markdown.slice(0, start + TABLE_START.length)}\n\n${renderTable(report)}\n\n${markdown.slice(end)}`;
}

/** Cells of a markdown table, spaces trimmed (a formatter may pad them differently). */
export function tableCells(table) {
  return table
    .trim()
    .split('\n')
    .filter((row) => !/^\|[\s|-]+\|$/.test(row))
    .map((row) =>
      row
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim()),
    );
}

/**
 * What differs between two reports, as lines (`runs[1].packages.ai: 6.0.325 → 6.0.330`), or [].
 * @param {unknown} expected
 * @param {unknown} actual
 */
export function reportDifferences(expected, actual, path = '') {
  if (typeof expected !== 'object' || expected === null || typeof actual !== 'object' || actual === null) {
    return JSON.stringify(expected) === JSON.stringify(actual)
      ? []
      : [`${path || '(report)'}: ${JSON.stringify(expected)} → ${JSON.stringify(actual)}`];
  }
  const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
  return [...keys].flatMap((key) =>
    reportDifferences(
      expected[key],
      actual[key],
      Array.isArray(expected) ? `${path}[${key}]` : path ? `${path}.${key}` : key,
    ),
  );
}
