/**
 * The catalog's search index: BM25+ per field over each skill's name, description, keywords and
 * body, summed with field boosts (see catalog-postings.ts). It follows the tree incrementally: a
 * skill whose snapshot entry is the same object is skipped, a changed one is replaced, a removed
 * one is removed; nothing is rebuilt. `bench/catalog.mjs` measured it against MiniSearch 7 and a
 * plain BM25 baseline (docs/catalogs.md).
 */
import type { CatalogSkill, SkillMatch } from '../types/catalog.js';
import { isPinned } from './catalog.js';
import { FIELDS, type FieldTexts, Postings } from './catalog-postings.js';
import type { SkillEntry, TreeSnapshot } from './serialize.js';

/** How much a hit in each field counts: the name and keywords say most, a long body least. */
export const FIELD_BOOSTS = { name: 3, description: 2, keywords: 2.5, body: 1 } as const;

/** Words a user's request is full of and a skill's text says nothing by. */
const STOPWORDS = new Set(
  (
    'a an and are as at be but by can could do does for from has have how i if in into is it its me my ' +
    'need of on or our please should so some that the their them then there these this to up us use ' +
    'using want was we what when where which who why will with would you your'
  ).split(' '),
);

/**
 * One term as the index keeps it, or null for a stopword: lower case, and a light suffix strip so
 * that "tests", "testing" and "tested" meet. The same for documents and queries.
 */
export function processTerm(term: string): string | null {
  const t = term.toLowerCase();
  if (t.length < 2 || STOPWORDS.has(t)) return null;
  if (t.length > 5 && t.endsWith('ing')) return t.slice(0, -3);
  if (t.length > 4 && t.endsWith('ies')) return `${t.slice(0, -3)}y`;
  if (t.length > 4 && t.endsWith('ed')) return t.slice(0, -2);
  if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss')) return t.slice(0, -1);
  return t;
}

/** Splits text into words: runs of letters and digits (names split at `-` and `_`). */
export function tokenize(text: string): string[] {
  return text.split(/[^\p{L}\p{N}]+/u).filter((t) => t !== '');
}

/** The index terms of a text: its words, processed, stopwords dropped. */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    const term = processTerm(token);
    if (term !== null) out.push(term);
  }
  return out;
}

type Doc = FieldTexts;

interface Indexed {
  /** The snapshot entry indexed last; null when {@link CatalogIndex.remember} asks for a re-read. */
  entry: SkillEntry | null;
  doc: Doc;
  slot: number;
  skill: CatalogSkill;
  seen: number;
}

/** What a loaded skill renders, as text to index: its lines, then each tool's name and description. */
function renderedText(entry: SkillEntry): string {
  if (entry.lines.length === 0 && entry.tools.length === 0) return '';
  const tools = entry.tools.map((t) => `${t.name} ${String(t.node.props.description ?? '')}`);
  return [...entry.lines, ...tools].join('\n');
}

function keywordsOf(entry: SkillEntry): string[] {
  const raw: unknown = entry.node.props.keywords;
  return Array.isArray(raw) ? raw.filter((k): k is string => typeof k === 'string') : [];
}

/** A session's index over its catalog. Call {@link CatalogIndex.sync} with the latest snapshot before each search. */
export class CatalogIndex {
  private byName = new Map<string, Indexed>();
  private postings = this.newPostings();
  /** The catalog synced last: a snapshot whose commit changed no skill shares it with the one before. */
  private synced: ReadonlyMap<string, SkillEntry> | null = null;
  private round = 0;
  private list: CatalogSkill[] | null = null;
  /** What each skill rendered last (its instructions, text and tools), kept after it unloads. */
  private rendered = new Map<string, string>();

  /**
   * Keeps what a loaded skill renders now, before it unloads: the next sync indexes it as the
   * skill's body even though the tree no longer holds it.
   */
  remember(entry: SkillEntry | undefined): void {
    if (!entry) return;
    const text = renderedText(entry);
    if (text === '') return;
    this.rendered.set(entry.name, text);
    const indexed = this.byName.get(entry.name);
    if (indexed) indexed.entry = null;
    this.synced = null;
  }

  private newPostings(): Postings {
    const postings = new Postings(
      termsOf,
      FIELDS.map((f) => FIELD_BOOSTS[f]),
    );
    postings.onCompact = (name, slot) => {
      const indexed = this.byName.get(name);
      if (indexed) indexed.slot = slot;
    };
    return postings;
  }

  /** Brings the index up to `snap`'s catalog: adds, replaces and removes only what changed. */
  sync(snap: TreeSnapshot): void {
    if (this.synced === snap.skillsByName) return;
    const round = ++this.round;
    for (const entry of snap.skillsByName.values()) {
      const last = this.byName.get(entry.name);
      if (last && last.entry === entry) {
        last.seen = round;
        continue;
      }
      const now = renderedText(entry);
      if (now !== '') this.rendered.set(entry.name, now);
      const rendered = this.rendered.get(entry.name) ?? '';
      const searchText = typeof entry.node.props.searchText === 'string' ? entry.node.props.searchText : '';
      const keywords = keywordsOf(entry);
      const doc: Doc = {
        name: entry.name,
        description: entry.description,
        keywords: keywords.join(' '),
        body: searchText && rendered ? `${searchText}\n${rendered}` : searchText || rendered,
      };
      const skill: CatalogSkill = {
        name: entry.name,
        description: entry.description,
        keywords,
        body: doc.body,
        pinned: isPinned(entry),
      };
      if (last && sameDoc(last.doc, doc)) {
        // Re-read, but nothing the index holds changed (the skill re-rendered a line it already had).
        Object.assign(last, { entry, seen: round });
        if (last.skill.pinned !== skill.pinned) last.skill = skill;
        this.list = null;
        continue;
      }
      if (last) this.postings.remove(last.slot);
      const slot = this.postings.add(entry.name, doc);
      this.byName.set(entry.name, { entry, doc, slot, skill, seen: round });
      this.list = null;
    }
    if (this.byName.size > snap.skillsByName.size || this.list === null) {
      for (const [name, indexed] of this.byName) {
        if (indexed.seen === round) continue;
        this.postings.remove(indexed.slot);
        this.byName.delete(name);
        this.rendered.delete(name);
        this.list = null;
      }
    }
    this.synced = snap.skillsByName;
  }

  /** How many skills the index holds. */
  get size(): number {
    return this.byName.size;
  }

  /** The best `limit` skills for `query`, best first. */
  search(query: string, limit: number): SkillMatch[] {
    return this.postings.search(query, limit).map(([name, score]) => ({ name, score }));
  }

  /**
   * Skill names close to a name the catalog does not hold, best first: names within two edits,
   * then what a search for its words finds.
   */
  closest(name: string, limit = 3): string[] {
    const target = name.toLowerCase();
    const near: { name: string; d: number }[] = [];
    for (const candidate of this.byName.keys()) {
      const d = editDistance(target, candidate.toLowerCase(), 3);
      if (d < 3) near.push({ name: candidate, d });
    }
    near.sort((a, b) => a.d - b.d);
    const out = near.slice(0, limit).map((n) => n.name);
    if (out.length < limit) {
      for (const hit of this.search(name, limit * 2)) {
        if (out.length >= limit) break;
        if (!out.includes(hit.name)) out.push(hit.name);
      }
    }
    return out;
  }

  /** Every indexed skill, in catalog order of indexing (for an app's ranker). */
  skills(): readonly CatalogSkill[] {
    if (!this.list) this.list = [...this.byName.values()].map((i) => i.skill);
    return this.list;
  }
}

const indexes = new WeakMap<object, CatalogIndex>();

/** The catalog index of one session (keyed by its state object), made on first use. */
export function catalogIndexOf(owner: object): CatalogIndex {
  let index = indexes.get(owner);
  if (!index) {
    index = new CatalogIndex();
    indexes.set(owner, index);
  }
  return index;
}

function sameDoc(a: Doc, b: Doc): boolean {
  return a.name === b.name && a.description === b.description && a.keywords === b.keywords && a.body === b.body;
}

/** Levenshtein distance, capped: returns `cap` as soon as it is sure to be at least that. */
export function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let min = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (row[j] < min) min = row[j];
    }
    if (min >= cap) return cap;
    prev = row;
  }
  return Math.min(prev[b.length], cap);
}
