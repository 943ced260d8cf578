// How far core's default token estimate (4 characters per token) is from OpenAI's exact count, on
// real text of the kinds a transcript holds: English prose (this repository's docs, code blocks
// removed), code (the packages' TypeScript sources), JSON tool results (the long conversation's
// results, and real package manifests written compactly), and other languages (TypeScript's
// translated compiler messages).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createElement as h } from 'react';
import { openaiTokenizer } from '../../../models/dist/tokenizer.js';
import { estimateTokens } from '../../dist/provider.js';
import { OpsAgent, planConversation, planModel } from './long-conversation.mjs';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const require = createRequire(import.meta.url);

function filesUnder(dir, test, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) filesUnder(path, test, out);
    else if (test(entry.name)) out.push(path);
  }
  return out.sort();
}

/** Pieces of about `size` characters, cut at line ends: the size of a message or a tool result. */
function pieces(text, size = 1500) {
  const out = [];
  let current = '';
  for (const line of text.split('\n')) {
    current += `${line}\n`;
    if (current.length >= size) {
      out.push(current);
      current = '';
    }
  }
  if (current.trim()) out.push(current);
  return out;
}

function prose() {
  const text = readdirSync(join(repo, 'docs'))
    .filter((f) => f.endsWith('.md') && f !== 'api.md')
    .map((f) => readFileSync(join(repo, 'docs', f), 'utf8'))
    .join('\n')
    .replace(/```[\s\S]*?```/g, '')
    .replace(/^\|.*$/gm, '')
    .replace(/<!--.*?-->/g, '');
  return pieces(text);
}

function code() {
  const files = filesUnder(join(repo, 'packages'), (name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'));
  return pieces(files.map((f) => readFileSync(f, 'utf8')).join('\n'));
}

async function toolResults() {
  const { createSession, ownTextOf } = await import('../../dist/index.js');
  const plan = planConversation(40);
  const session = createSession(h(OpsAgent), { model: planModel(plan) });
  for (const turn of plan) await session.send(turn.user);
  const results = session.transcript
    .filter((m) => m.role === 'tool')
    .map((m) => ownTextOf(m))
    .filter((text) => text.startsWith('{'));
  session.dispose();
  return results;
}

/** Real JSON: the manifests of the packages this repository installs, written compactly. */
function manifests(limit = 150) {
  const store = join(repo, 'node_modules', '.pnpm');
  const out = [];
  for (const entry of readdirSync(store).sort()) {
    if (out.length >= limit) break;
    const base = entry.split('_')[0];
    const at = base.lastIndexOf('@');
    if (at <= 0) continue;
    const name = base.slice(0, at).replace('+', '/');
    try {
      out.push(
        JSON.stringify(JSON.parse(readFileSync(join(store, entry, 'node_modules', name, 'package.json'), 'utf8'))),
      );
    } catch {
      // not a package folder
    }
  }
  return out;
}

function translated(language) {
  const file = join(
    dirname(require.resolve('typescript/package.json')),
    'lib',
    language,
    'diagnosticMessages.generated.json',
  );
  return pieces(Object.values(JSON.parse(readFileSync(file, 'utf8'))).join('\n'));
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const signed = (x) => `${x >= 0 ? '+' : '−'}${Math.abs(Math.round(x * 100))}%`;

/** Lines of a table: per kind of text, the estimate's error overall and per piece (10th–90th percentile). */
export async function measureTokenizer() {
  const exact = { o200k: openaiTokenizer('o200k_base'), cl100k: openaiTokenizer('cl100k_base') };
  const corpora = [
    ['English prose (docs)', prose()],
    ['TypeScript code', code()],
    ['JSON tool results (bench)', await toolResults()],
    ['JSON (package manifests)', manifests()],
    ['German', translated('de')],
    ['French', translated('fr')],
    ['Russian', translated('ru')],
    ['Japanese', translated('ja')],
    ['Chinese (simplified)', translated('zh-cn')],
    ['Korean', translated('ko')],
  ];
  const lines = [
    `${'text'.padEnd(28)}${'pieces'.padStart(7)}${'chars/token'.padStart(13)}  ${'estimate vs o200k: total, per piece p10…p90'.padEnd(46)}vs cl100k (total)`,
  ];
  let chars = 0;
  let ms = 0;
  for (const [name, texts] of corpora) {
    let estimated = 0;
    let counted = 0;
    let countedCl = 0;
    let length = 0;
    const errors = [];
    for (const text of texts) {
      const t0 = performance.now();
      const n = exact.o200k(text);
      ms += performance.now() - t0;
      chars += text.length;
      const e = estimateTokens(text);
      estimated += e;
      counted += n;
      countedCl += exact.cl100k(text);
      length += text.length;
      errors.push(e / n - 1);
    }
    errors.sort((a, b) => a - b);
    lines.push(
      `${name.padEnd(28)}${String(texts.length).padStart(7)}${(length / counted).toFixed(2).padStart(13)}  ${`${signed(estimated / counted - 1)}, ${signed(quantile(errors, 0.1))} … ${signed(quantile(errors, 0.9))}`.padEnd(46)}${signed(estimated / countedCl - 1)}`,
    );
  }
  lines.push(
    `(+ = the estimate counts more tokens than the model; exact counting ran at ${Math.round(chars / ms)} characters per ms)`,
  );
  return lines;
}
