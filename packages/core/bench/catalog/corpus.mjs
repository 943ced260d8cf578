// The real SKILL.md corpus (bench/corpus, see its README for sources and licences) and generated
// skills made from its words, so that the real ones hide among look-alikes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSkillFolder } from '../../../agent-skills/dist/index.js';
import { random } from '../random.mjs';

const here = new URL('../corpus/', import.meta.url);

/**
 * The source folders of bench/corpus, the first three first (their order decides which of two
 * skills with one name keeps it), then the rest in name order.
 */
export function sources() {
  const first = ['anthropics', 'openai', 'vercel'];
  const rest = readdirSync(here, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !first.includes(d.name))
    .map((d) => d.name)
    .sort();
  return [...first, ...rest];
}

/**
 * The real skills: `{ name, sessionName, description, body, path, source }`. A name already taken
 * by an earlier source becomes `<source>-<name>` (so the OpenAI skill-creator is
 * `openai-skill-creator`, see README); `sessionName` is the name its SKILL.md gives, which a
 * session keeps.
 */
export function realSkills() {
  const out = [];
  const taken = new Set();
  for (const source of sources()) {
    const dir = new URL(`${source}/`, here);
    const folders = readdirSync(dir, { withFileTypes: true }).filter((f) => f.isDirectory());
    folders.sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const folder of folders) {
      const info = readSkillFolder(new URL(`${folder.name}/`, dir));
      const name = taken.has(info.name) ? `${source}-${info.name}` : info.name;
      taken.add(name);
      out.push({
        name,
        sessionName: info.name,
        description: info.description,
        body: info.body,
        path: join(dir.pathname, folder.name),
        source,
      });
    }
  }
  return out;
}

/** The queries, written as a user would ask: `{ query, expected: [names] }`. */
export function queries() {
  return JSON.parse(readFileSync(new URL('queries.json', here), 'utf8'));
}

/**
 * `n` generated skills that look like the real ones: a two-word name, a description of 14 words
 * drawn from the real descriptions, and a body of 8 lines drawn from the real bodies. They compete
 * with the real skills for every word a query has.
 */
export function generatedSkills(n, real = realSkills(), seed = 34) {
  // Seeded, so every run makes the same catalogs.
  const rand = random(seed);
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const words = [...new Set(real.flatMap((s) => s.description.split(/[^A-Za-z0-9]+/)).filter((w) => w.length > 3))];
  const nameWords = words.map((w) => w.toLowerCase());
  const lines = real.flatMap((s) => s.body.split('\n')).filter((l) => l.trim().length > 40);
  const out = [];
  for (let i = 0; i < n; i++) {
    const description = Array.from({ length: 14 }, () => pick(words)).join(' ');
    out.push({
      name: `${pick(nameWords)}-${pick(nameWords)}-${i}`,
      description: `${description.charAt(0).toUpperCase()}${description.slice(1)}.`,
      body: Array.from({ length: 8 }, () => pick(lines)).join('\n'),
    });
  }
  return out;
}
