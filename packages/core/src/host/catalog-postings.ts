/**
 * The catalog's inverted index: per field, each term's postings in typed arrays, scored with BM25+
 * per field and summed with field boosts (as MiniSearch does), top-k by selection. Written for the
 * catalog's one job: `bench/catalog.mjs` measured MiniSearch 7 at 20–30 ms a query over 10,000
 * SKILL.md-sized skills, and this at well under 5 ms with the same ranking quality (docs/catalogs.md).
 * A removed document is marked dead and its postings skipped until a compaction drops them.
 */

/** The fields, in the order of their per-field arrays. */
export const FIELDS = ['name', 'description', 'keywords', 'body'] as const;
/** One document's text per field. */
export type FieldTexts = Record<(typeof FIELDS)[number], string>;

/** BM25+ constants: term saturation, length normalisation, and the floor a matching term adds. */
const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;

interface Posting {
  docs: Int32Array;
  tfs: Uint16Array;
  n: number;
  /** Live documents that hold the term (postings of removed ones are skipped, not counted). */
  df: number;
}

/** Term counts of one text, after `terms` turned it into index terms. */
function counts(terms: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of terms) out.set(t, (out.get(t) ?? 0) + 1);
  return out;
}

/** An inverted index over documents with four fields. Ids are slots; a removed slot is not reused until a compaction. */
export class Postings {
  private dict = FIELDS.map(() => new Map<string, Posting>());
  private lengths = FIELDS.map(() => [] as number[]);
  private totals = FIELDS.map(() => 0);
  private alive: Uint8Array = new Uint8Array(64);
  private keys: string[] = [];
  private texts: FieldTexts[] = [];
  private live = 0;
  private dead = 0;
  private scores = new Float64Array(64);
  /** The documents a search scored, reused across searches (no garbage per query). */
  private touched = new Int32Array(64);

  constructor(
    private readonly terms: (text: string) => string[],
    private readonly boosts: readonly number[],
  ) {}

  /** How many documents are indexed. */
  get size(): number {
    return this.live;
  }

  /** Adds a document under `key`; returns its slot. */
  add(key: string, texts: FieldTexts): number {
    const id = this.keys.length;
    this.keys.push(key);
    this.texts.push(texts);
    if (id >= this.alive.length) {
      const grown = new Uint8Array(this.alive.length * 2);
      grown.set(this.alive);
      this.alive = grown;
      this.scores = new Float64Array(grown.length);
      this.touched = new Int32Array(grown.length);
    }
    this.alive[id] = 1;
    this.live++;
    FIELDS.forEach((field, f) => {
      const terms = this.terms(texts[field]);
      this.lengths[f][id] = terms.length;
      this.totals[f] += terms.length;
      for (const [term, tf] of counts(terms)) {
        let p = this.dict[f].get(term);
        if (!p) {
          p = { docs: new Int32Array(2), tfs: new Uint16Array(2), n: 0, df: 0 };
          this.dict[f].set(term, p);
        }
        if (p.n === p.docs.length) {
          const docs = new Int32Array(p.n * 2);
          docs.set(p.docs);
          const tfs = new Uint16Array(p.n * 2);
          tfs.set(p.tfs);
          p.docs = docs;
          p.tfs = tfs;
        }
        p.docs[p.n] = id;
        p.tfs[p.n] = Math.min(tf, 65535);
        p.n++;
        p.df++;
      }
    });
    return id;
  }

  /** Removes the document in slot `id`: its postings are skipped from now on and counted out of each term's df. */
  remove(id: number): void {
    if (!this.alive[id]) return;
    this.alive[id] = 0;
    this.live--;
    this.dead++;
    const texts = this.texts[id];
    FIELDS.forEach((field, f) => {
      this.totals[f] -= this.lengths[f][id];
      for (const term of new Set(this.terms(texts[field]))) {
        const p = this.dict[f].get(term);
        if (p) p.df--;
      }
    });
    if (this.dead > 64 && this.dead > this.live / 4) this.compact();
  }

  /** The best `limit` documents for `query`, best first, as `[key, score]`. */
  search(query: string, limit: number): [string, number][] {
    const terms = [...new Set(this.terms(query))];
    const { scores, touched, alive } = this;
    let count = 0;
    const n = Math.max(1, this.live);
    for (let f = 0; f < FIELDS.length; f++) {
      const boost = this.boosts[f];
      const avg = this.totals[f] / n || 1;
      const lengths = this.lengths[f];
      const fixed = K1 * (1 - B);
      const scaled = (K1 * B) / avg;
      for (const term of terms) {
        const p = this.dict[f].get(term);
        if (!p || p.df <= 0) continue;
        const weight = boost * Math.log(1 + (n - p.df + 0.5) / (p.df + 0.5));
        const { docs, tfs } = p;
        for (let i = 0; i < p.n; i++) {
          const id = docs[i];
          if (alive[id] === 0) continue;
          const tf = tfs[i];
          if (scores[id] === 0) touched[count++] = id;
          scores[id] += weight * (DELTA + (tf * (K1 + 1)) / (tf + fixed + scaled * lengths[id]));
        }
      }
    }
    // Top `limit` by selection: touched documents can be most of the catalog; the list stays short.
    const top: number[] = [];
    for (let t = 0; t < count; t++) {
      const id = touched[t];
      const s = scores[id];
      if (top.length === limit && s <= scores[top[top.length - 1]]) continue;
      let at = top.length;
      while (at > 0 && scores[top[at - 1]] < s) at--;
      top.splice(at, 0, id);
      if (top.length > limit) top.pop();
    }
    const out = top.map((id): [string, number] => [this.keys[id], scores[id]]);
    for (let t = 0; t < count; t++) scores[touched[t]] = 0;
    return out;
  }

  /** Rebuilds the postings without removed documents (when they are a fifth of the slots). */
  private compact(): void {
    const keep: { key: string; texts: FieldTexts }[] = [];
    this.keys.forEach((key, id) => {
      if (this.alive[id]) keep.push({ key, texts: this.texts[id] });
    });
    const remap = this.onCompact;
    this.dict = FIELDS.map(() => new Map());
    this.lengths = FIELDS.map(() => []);
    this.totals = FIELDS.map(() => 0);
    this.alive = new Uint8Array(Math.max(64, keep.length * 2));
    this.scores = new Float64Array(this.alive.length);
    this.touched = new Int32Array(this.alive.length);
    this.keys = [];
    this.texts = [];
    this.live = 0;
    this.dead = 0;
    for (const doc of keep) remap?.(doc.key, this.add(doc.key, doc.texts));
  }

  /** Told each document's new slot after a compaction. */
  onCompact: ((key: string, id: number) => void) | null = null;
}
