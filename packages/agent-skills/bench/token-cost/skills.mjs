// 100 Agent Skills folders of realistic sizes, written to a temporary directory: a SKILL.md with
// valid frontmatter (a description of 150–300 characters) and a body of 2–6 KB of Markdown
// instructions, plus one or two reference files, as the folders people publish hold.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seeded } from './random.mjs';

const DOMAINS = [
  ['pdf', 'PDF documents'],
  ['spreadsheet', 'spreadsheets'],
  ['slides', 'slide decks'],
  ['invoice', 'invoices'],
  ['contract', 'contracts'],
  ['release', 'software releases'],
  ['incident', 'production incidents'],
  ['api', 'HTTP APIs'],
  ['sql', 'SQL queries'],
  ['docker', 'container images'],
  ['k8s', 'Kubernetes workloads'],
  ['terraform', 'Terraform modules'],
  ['brand', 'brand guidelines'],
  ['email', 'customer emails'],
  ['meeting', 'meeting notes'],
  ['research', 'research papers'],
  ['dataset', 'tabular datasets'],
  ['chart', 'charts'],
  ['security', 'security reviews'],
  ['i18n', 'translations'],
];
const ACTIONS = [
  ['review', 'Review', 'asks for a review of'],
  ['draft', 'Draft', 'wants a first draft of'],
  ['convert', 'Convert', 'needs to convert'],
  ['audit', 'Audit', 'asks whether something is wrong with'],
  ['summarize', 'Summarize', 'wants a summary of'],
];
const QUALIFIERS = [
  'following the team conventions and the checklists in references/',
  'with consistent structure, naming and formatting across the whole document',
  'keeping every figure traceable to its source and flagging anything that cannot be checked',
  'in the house style, with the templates in assets/ and the rules in references/',
  'step by step, asking for missing inputs before doing any irreversible work',
];
const TRIGGERS = [
  'mentions a file of this kind',
  'pastes one in',
  'asks for a checklist',
  'wants it done to a standard',
  'asks what is wrong with it',
  'needs it for a customer or an auditor',
  'wants the result as a table',
];
const WORDS =
  'the a each every file section field value table row column header footer page note check rule step input output result error warning draft final version owner reviewer date amount total name title reference template source target format style list item link summary reason example case limit default option order group label status'.split(
    ' ',
  );
const VERBS =
  'read check compare write keep mark list group sort quote cite name count round convert split merge flag skip ask confirm record'.split(
    ' ',
  );

function sentence(rnd) {
  const words = [rnd.pick(VERBS)];
  const n = rnd.int(8, 20);
  for (let i = 0; i < n; i++) words.push(rnd.pick(WORDS));
  const text = words.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

function paragraph(rnd, sentences) {
  return Array.from({ length: sentences }, () => sentence(rnd)).join(' ');
}

function description(rnd, domain, action) {
  const [, noun] = domain;
  const [, verb, trigger] = action;
  const triggers = rnd.sample(TRIGGERS, 3);
  let text = `${verb} ${noun} ${rnd.pick(QUALIFIERS)}. Use when the user ${trigger} ${noun}, ${triggers[0]}, ${triggers[1]} or ${triggers[2]}.`;
  while (text.length < 150) text += ` Also when the user ${rnd.pick(TRIGGERS)}.`;
  return text.length <= 300 ? text : `${text.slice(0, 298).trimEnd()}.`;
}

function body(rnd, title, target) {
  const parts = [`# ${title}`, '', '## When to use', '', paragraph(rnd, 3), '', '## Steps', ''];
  let step = 1;
  while (parts.join('\n').length < target * 0.55) parts.push(`${step++}. ${paragraph(rnd, rnd.int(1, 2))}`);
  parts.push('', '## Rules', '');
  while (parts.join('\n').length < target * 0.8) parts.push(`- ${sentence(rnd)}`);
  parts.push('', '## Output', '', paragraph(rnd, 2), '', '## Example', '', '```text');
  while (parts.join('\n').length < target - 120) parts.push(sentence(rnd).slice(0, 90));
  parts.push('```', '', 'Read `references/REFERENCE.md` for the details of each field before you fill it in.');
  return `${parts.join('\n')}\n`;
}

/**
 * Writes `count` skill folders under `dir` and returns their names. Names are unique and valid
 * (lowercase, digits, hyphens), each equal to its folder name.
 */
export function writeSkillFolders(dir, count = 100, seed = 13) {
  const rnd = seeded(seed);
  const names = [];
  for (let i = 0; i < count; i++) {
    const domain = DOMAINS[i % DOMAINS.length];
    const action = ACTIONS[Math.floor(i / DOMAINS.length) % ACTIONS.length];
    const name = `${domain[0]}-${action[0]}`;
    const folder = join(dir, name);
    mkdirSync(join(folder, 'references'), { recursive: true });
    const frontmatter = [
      '---',
      `name: ${name}`,
      `description: ${JSON.stringify(description(rnd, domain, action))}`,
      'license: MIT',
      'metadata:',
      '  author: skilltree bench',
      '  version: "1.0"',
      '---',
    ].join('\n');
    const size = rnd.int(2000, 6000);
    writeFileSync(join(folder, 'SKILL.md'), `${frontmatter}\n${body(rnd, `${action[1]} ${domain[1]}`, size)}`);
    writeFileSync(join(folder, 'references', 'REFERENCE.md'), body(rnd, 'Reference', rnd.int(3000, 9000)));
    if (rnd.next() < 0.5) writeFileSync(join(folder, 'references', 'checklist.md'), body(rnd, 'Checklist', 1500));
    names.push(name);
  }
  return names;
}
