// A plain BM25 (Okapi, k1 = 1.2, b = 0.75) over one text per skill: the baseline the catalog's
// MiniSearch index is measured against. The same words as the index (core's tokenize and
// processTerm), so the comparison is about ranking and fields, not about splitting words.
import { processTerm, tokenize } from '../../dist/host/catalog-index.js';

function terms(text) {
  const out = [];
  for (const token of tokenize(text)) {
    const term = processTerm(token);
    if (term) out.push(term);
  }
  return out;
}

/** An inverted index over `docs` ({ name, text }): `search(query, limit)` returns names, best first. */
export function bm25(docs, { k1 = 1.2, b = 0.75 } = {}) {
  const postings = new Map();
  const lengths = new Float64Array(docs.length);
  let total = 0;
  docs.forEach((doc, i) => {
    const counts = new Map();
    const words = terms(doc.text);
    lengths[i] = words.length;
    total += words.length;
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    for (const [w, tf] of counts) {
      const list = postings.get(w) ?? [];
      if (list.length === 0) postings.set(w, list);
      list.push(i, tf);
    }
  });
  const avg = total / Math.max(1, docs.length);
  const n = docs.length;
  return {
    search(query, limit) {
      const scores = new Map();
      for (const term of new Set(terms(query))) {
        const list = postings.get(term);
        if (!list) continue;
        const df = list.length / 2;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        for (let j = 0; j < list.length; j += 2) {
          const i = list[j];
          const tf = list[j + 1];
          const s = (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * lengths[i]) / avg));
          scores.set(i, (scores.get(i) ?? 0) + s);
        }
      }
      return [...scores]
        .sort((x, y) => y[1] - x[1])
        .slice(0, limit)
        .map(([i]) => docs[i].name);
    },
  };
}
