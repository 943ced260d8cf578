// The real SKILL.md corpus (bench/corpus, see its README for sources and licences) and generated
// skills made from its words, so that the real ones hide among look-alikes.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSkillFolder } from '../../../agent-skills/dist/index.js';

const here = new URL('../corpus/', import.meta.url);

/** The 29 real skills: `{ name, description, body }` (the OpenAI skill-creator renamed, see README). */
export function realSkills() {
  const out = [];
  for (const source of ['anthropics', 'openai', 'vercel']) {
    const dir = new URL(`${source}/`, here);
    for (const folder of readdirSync(dir, { withFileTypes: true })) {
      if (!folder.isDirectory()) continue;
      const info = readSkillFolder(new URL(`${folder.name}/`, dir));
      const name = source === 'openai' && info.name === 'skill-creator' ? 'openai-skill-creator' : info.name;
      out.push({ name, description: info.description, body: info.body, path: join(dir.pathname, folder.name) });
    }
  }
  return out;
}

/** The queries, written as a user would ask: `{ query, expected: [names] }`. */
export function queries() {
  return JSON.parse(readFileSync(new URL('queries.json', here), 'utf8'));
}

/** A seeded random generator (mulberry32), so every run makes the same catalogs. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `n` generated skills that look like the real ones: a two-word name, a description of 14 words
 * drawn from the real descriptions, and a body of 8 lines drawn from the real bodies. They compete
 * with the real skills for every word a query has.
 */
export function generatedSkills(n, real = realSkills(), seed = 34) {
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
