// The catalog at scale (issue 34): what the first request costs with a listed and a searched
// catalog, and how well and how fast the search finds the right skill. Run: pnpm bench, or
// `node --expose-gc packages/core/bench/catalog.mjs` after `pnpm build`. Plain JS over dist/.
//
// Catalogs: 20 / 200 / 2,000 / 10,000 skills. Tokens are core's estimate (4 characters a token) of
// the system prompt plus the tools as JSON of `session.request()` in a real session. Search quality:
// the real SKILL.md skills of bench/corpus (218 from six repositories) hidden among generated
// look-alikes (their words, their body lines), asked the queries of bench/corpus/queries.json; recall@5 (an expected skill
// in the top 5) and MRR@10. Compared: the catalog index (BM25+ per field with boosts over name,
// description, keywords and body), MiniSearch 7 configured the same way, a plain BM25 over
// name + description (what peers search), and a plain BM25 over name + description + body.
import { performance } from 'node:perf_hooks';
import MiniSearch from 'minisearch';
import { cloneElement, createElement as h } from 'react';
import { loadSkillFolders } from '../../agent-skills/dist/index.js';
import { CatalogIndex, FIELD_BOOSTS, processTerm, tokenize } from '../dist/host/catalog-index.js';
import { sameSystem } from '../dist/host/prompt.js';
import { readTree } from '../dist/host/serialize.js';
import { Agent, createSession, Instructions, restoreSession, Skill } from '../dist/index.js';
import { estimateTokens } from '../dist/provider.js';
import { stateOf } from '../dist/sessions/session.js';
import { shedIdle } from '../dist/state/idle.js';
import { makeAgent } from './agent.mjs';
import { bm25 } from './catalog/bm25.mjs';
import { generatedSkills, queries, realSkills, sources } from './catalog/corpus.mjs';

const gc = globalThis.gc ?? (() => {});
/** The CPU time `f` takes (user + system), in ms. */
const cpu = (f) => {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};
/** The CPU time (ms) of one tool call `name(input)` the model asks `session` for, and the request after it. */
async function callThenRequest(session, name, input) {
  const [call] = session.addAssistantMessage({ content: '', toolCalls: [{ id: '', name, input }] }).toolCalls;
  const start = process.cpuUsage();
  await session.callTool(call);
  session.request();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
/** The median of `xs` (sorts it in place). */
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** `--step-only`: only the step table (search mode as the catalog grows), for before/after runs. */
const STEP_ONLY = process.argv.includes('--step-only');
const SIZES = [20, 200, 2000, 10000];
const real = realSkills();
const asked = queries();
/** Search quality: the real corpus alone, then hidden among generated skills. */
const QUALITY_SIZES = [real.length, 500, 2000, 10000];

/** A tree snapshot as the index reads it: each skill unloaded, its body given as searchText. */
function snapshotOf(skills) {
  const entries = skills.map((s) => ({
    name: s.name,
    description: s.description,
    lines: [],
    tools: [],
    node: { props: { searchText: s.body } },
  }));
  return { skills: entries, skillsByName: new Map(entries.map((e) => [e.name, e])) };
}

const systems = {
  'catalog index (BM25+ per field, boosts)': (skills) => {
    const index = new CatalogIndex();
    index.sync(snapshotOf(skills));
    return { search: (q, n) => index.search(q, n).map((m) => m.name) };
  },
  'MiniSearch 7 (same fields, boosts, words)': (skills) => {
    const mini = new MiniSearch({
      fields: ['name', 'description', 'body'],
      tokenize,
      processTerm: (t) => processTerm(t),
      searchOptions: { boost: { ...FIELD_BOOSTS }, combineWith: 'OR' },
      autoVacuum: false,
    });
    mini.addAll(skills.map((s) => ({ id: s.name, name: s.name, description: s.description, body: s.body })));
    return {
      search: (q, n) =>
        mini
          .search(q)
          .slice(0, n)
          .map((hit) => hit.id),
    };
  },
  'BM25, name + description': (skills) =>
    bm25(skills.map((s) => ({ name: s.name, text: `${s.name.replace(/[-_]/g, ' ')}\n${s.description}` }))),
  'BM25, name + description + body': (skills) =>
    bm25(skills.map((s) => ({ name: s.name, text: `${s.name.replace(/[-_]/g, ' ')}\n${s.description}\n${s.body}` }))),
};

function quality(search) {
  let hits = 0;
  let rr = 0;
  for (const { query, expected } of asked) {
    const top = search(query, 10);
    const rank = top.findIndex((name) => expected.includes(name));
    if (rank >= 0 && rank < 5) hits++;
    if (rank >= 0) rr += 1 / (rank + 1);
  }
  return { recall5: hits / asked.length, mrr: rr / asked.length };
}

function latency(search) {
  const times = [];
  for (let round = 0; round < 5; round++) {
    for (const { query } of asked) {
      const t = performance.now();
      search(query, 5);
      times.push(performance.now() - t);
    }
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)] };
}

function pct(x) {
  return `${(x * 100).toFixed(1)}%`;
}

const all = generatedSkills(SIZES.at(-1), real);
if (!STEP_ONLY) {
  console.log(`catalog search: ${real.length} real skills, ${asked.length} queries\n`);
  console.log('| skills | ranker | recall@5 | MRR@10 | search median | search p95 | build | memory per skill |');
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|');
  for (const size of QUALITY_SIZES) {
    const skills = [...real, ...all.slice(0, size - real.length)];
    for (const [label, make] of Object.entries(systems)) {
      gc();
      // Typed arrays live outside the JS heap: count their buffers too.
      const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
      const before = used();
      const t = performance.now();
      let system = make(skills);
      const build = performance.now() - t;
      gc();
      const heap = (used() - before) / skills.length;
      const q = quality(system.search);
      const l = latency(system.search);
      console.log(
        `| ${size.toLocaleString('en')} | ${label} | ${pct(q.recall5)} | ${q.mrr.toFixed(3)} | ${l.median.toFixed(2)} ms | ${l.p95.toFixed(2)} ms | ${build.toFixed(0)} ms | ${(heap / 1024).toFixed(1)} KB |`,
      );
      system = null;
    }
  }

  // Incremental updates at 10,000 skills: one skill re-rendered, one added, one removed; each the
  // median CPU time of 5 (the machine's other load does not count), beside a rebuild.
  {
    const skills = [...real, ...all.slice(0, 10000 - real.length)];
    const snapOf = (entries) => ({ skills: entries, skillsByName: new Map(entries.map((e) => [e.name, e])) });
    const base = snapshotOf(skills).skills;
    const index = new CatalogIndex();
    index.sync(snapOf(base));
    const rerender = [];
    const add = [];
    const remove = [];
    for (let k = 0; k < 5; k++) {
      const changed = base.map((e, i) => (i === 100 + k ? { ...e, lines: [`A line rendered in round ${k}.`] } : e));
      const extra = { name: `brand-new-${k}`, description: 'A new skill', lines: [], tools: [], node: { props: {} } };
      // Snapshots are made before the clock starts: the tree makes them, the index only reads them.
      const [one, more, back] = [snapOf(changed), snapOf([...changed, extra]), snapOf(changed)];
      rerender.push(cpu(() => index.sync(one)));
      add.push(cpu(() => index.sync(more)));
      remove.push(cpu(() => index.sync(back)));
    }
    const whole = snapOf(base);
    const full = cpu(() => new CatalogIndex().sync(whole));
    console.log(
      `\nincremental at 10,000 skills (CPU, median of 5): re-rendered ${median(rerender).toFixed(1)} ms, added ${median(add).toFixed(1)} ms, removed ${median(remove).toFixed(1)} ms; a rebuild: ${full.toFixed(0)} ms`,
    );
  }
}

// A step in search mode as the catalog grows: one of three loaded skills re-renders on every tool
// call (the bench agent of step.mjs, catalog "search"), and the next request is
// built. Request building must not grow with the catalog: the snapshot carries the search decision
// and the pinned skills, so comparing two snapshots' catalogs reads the pinned ones only. Reported:
// the median CPU time of a step (call + request) and of the system-prompt comparison alone.
{
  const rows = [];
  for (const size of [20, 2000, 10000]) {
    const snapshot = { version: 1, transcript: [], loadedSkills: ['skill_0', 'skill_1', 'skill_2'], stores: {} };
    const session = await restoreSession(cloneElement(makeAgent(size), { catalog: 'search' }), snapshot);
    const steps = [];
    const compares = [];
    for (let i = 0; i < 130; i++) {
      const ms = await callThenRequest(session, `skill_${i % 3}_tool_0`, { id: 'A' });
      if (i >= 30) steps.push(ms);
    }
    // A load that unloads the least recently read (read_skill of a skill not loaded, the loaded set
    // full), then the next request: only the two skills whose state changed should render again.
    const loads = [];
    for (let i = 0; i < 40; i++) {
      const ms = await callThenRequest(session, 'read_skill', { name: `skill_${3 + (i % 12)}` });
      if (i >= 10) loads.push(ms);
    }
    // A chat kept mounted between turns lets go of the serializer's caches (state/idle.ts); the
    // next turn's first request reads the tree whole again.
    const idle = [];
    for (let i = 0; i < 20; i++) {
      shedIdle(stateOf(session));
      idle.push(cpu(() => session.request()));
    }
    // Two snapshots of one tree a re-render apart, compared as request building compares them.
    const root = stateOf(session).container.host;
    if (root) {
      for (let i = 0; i < 100; i++) {
        const a = readTree(root);
        root.dirty = true;
        const b = readTree(root);
        compares.push(cpu(() => sameSystem(a, b)));
      }
    }
    session.dispose();
    rows.push({
      size,
      step: median(steps),
      load: median(loads),
      idle: median(idle),
      compare: compares.length ? median(compares) : Number.NaN,
    });
  }
  console.log(
    '\n| skills (search mode, a loaded skill re-renders) | step: call + next request (CPU, median) | load + unload: read_skill + next request | first request after idle | system prompt comparison |',
  );
  console.log('|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.size.toLocaleString('en')} | ${r.step.toFixed(2)} ms | ${r.load.toFixed(2)} ms | ${r.idle.toFixed(2)} ms | ${Number.isNaN(r.compare) ? '-' : `${(r.compare * 1000).toFixed(1)} µs`} |`,
    );
  }
}

if (STEP_ONLY) process.exit(0);

// First-request tokens: real sessions, generated skills (description ~120 characters).
console.log(
  '\n| skills | list: catalog tokens | search: catalog tokens | list: first request | search: first request |',
);
console.log('|---:|---:|---:|---:|---:|');
const instructions = h(Instructions, null, 'You are a helpful assistant.');
const base = estimateTokens(createSession(h(Agent, { catalog: 'list' }, instructions)).request().system);
for (const size of SIZES) {
  const skills = [...real, ...all].slice(0, size);
  const tree = (catalog) =>
    h(
      Agent,
      { catalog },
      instructions,
      skills.map((s) => h(Skill, { key: s.name, name: s.name, description: s.description, searchText: s.body })),
    );
  const tokens = (catalog) => {
    const request = createSession(tree(catalog)).request();
    const total = estimateTokens(request.system) + estimateTokens(JSON.stringify(request.tools));
    return { total, catalog: total - base };
  };
  const list = tokens('list');
  const search = tokens('search');
  console.log(
    `| ${size.toLocaleString('en')} | ${list.catalog.toLocaleString('en')} | ${search.catalog.toLocaleString('en')} | ${list.total.toLocaleString('en')} | ${search.total.toLocaleString('en')} |`,
  );
}

// End to end: every real folder as a <SkillFolder> (loadSkillFolders, one call per source), among
// generated <Skill>s up to 500 in all, catalog "auto" (so searched), each query a search_skills
// call the session runs.
{
  // A name an earlier source took is renamed `<source>-<name>`, as in the quality runs.
  const taken = new Set();
  const folders = sources().flatMap((source) =>
    loadSkillFolders(new URL(`corpus/${source}/`, import.meta.url), { onWarning: () => {} }).map((el) => {
      const name = taken.has(el.key) ? `${source}-${el.key}` : el.key;
      taken.add(name);
      return name === el.key ? el : cloneElement(el, { name, key: name });
    }),
  );
  const generated = all.slice(0, Math.max(0, 500 - folders.length));
  const session = createSession(
    h(
      Agent,
      null,
      instructions,
      folders,
      generated.map((s) => h(Skill, { key: s.name, name: s.name, description: s.description, searchText: s.body })),
    ),
  );
  let hits = 0;
  for (const { query, expected } of asked) {
    const [call] = session.addAssistantMessage({
      content: '',
      toolCalls: [{ id: '', name: 'search_skills', input: { query } }],
    }).toolCalls;
    const result = await session.callTool(call);
    const text = result.content.map((p) => p.text ?? '').join('');
    const top = text.split('\n').map((line) => line.split(' — ')[0]);
    if (top.some((name) => expected.includes(name))) hits++;
  }
  const { tools } = session.request();
  console.log(
    `\nend to end, ${session.skills.length} skills (${folders.length} SKILL.md folders), tools ${tools.map((t) => t.name).join(', ')}: recall@5 ${pct(hits / asked.length)}`,
  );
  session.dispose();
  // The first request over the real folders alone, every one listed against searched.
  const first = (catalog) => {
    const own = createSession(h(Agent, { catalog }, instructions, folders));
    const request = own.request();
    own.dispose();
    return estimateTokens(request.system) + estimateTokens(JSON.stringify(request.tools));
  };
  const [listed, searched] = [first('list'), first('search')];
  console.log(
    `first request over the ${folders.length} real folders: list ${listed.toLocaleString('en')} tokens, search ${searched.toLocaleString('en')} tokens (${pct(searched / listed)} of list)`,
  );
}
