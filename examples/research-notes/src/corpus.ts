/**
 * A small, fictional library for the example to search: the titles, authors and findings are
 * made up, so the demo works offline and no real paper is misquoted.
 */
export interface Paper {
  id: string;
  title: string;
  authors: string;
  year: number;
  venue: string;
  keywords: string[];
  abstract: string;
}

export const PAPERS: Paper[] = [
  {
    id: 'P-101',
    title: 'Slow-wave sleep and the consolidation of word-pair memories',
    authors: 'Almeida, R. and Okafor, T.',
    year: 2021,
    venue: 'Journal of Sleep Studies (fictional)',
    keywords: ['sleep', 'memory', 'consolidation', 'slow-wave'],
    abstract:
      'Forty adults learned 120 word pairs in the evening. Recall the next morning was 18% better after a night with more slow-wave sleep, and the gain tracked spindle density in the first sleep cycle.',
  },
  {
    id: 'P-102',
    title: 'One night without sleep: hippocampal encoding the next day',
    authors: 'Lindqvist, M., Zhou, H. and Baptiste, C.',
    year: 2019,
    venue: 'Cognitive Neuroscience Letters (fictional)',
    keywords: ['sleep', 'deprivation', 'memory', 'encoding', 'hippocampus'],
    abstract:
      'After one night of total sleep deprivation, 28 participants encoded new pictures 40% less successfully than rested controls, with reduced hippocampal activation during learning.',
  },
  {
    id: 'P-103',
    title: 'REM sleep and emotional memory: a replication',
    authors: 'Kowalski, A. and Mensah, E.',
    year: 2022,
    venue: 'Affective Science Reports (fictional)',
    keywords: ['sleep', 'rem', 'emotion', 'memory'],
    abstract:
      'A preregistered replication with 96 participants found a small advantage for emotional over neutral images after REM-rich late-night sleep (d = 0.21), about half the originally reported effect.',
  },
  {
    id: 'P-104',
    title: 'Ten-minute naps and afternoon alertness',
    authors: 'Tanaka, Y. and Brennan, S.',
    year: 2020,
    venue: 'Applied Ergonomics Quarterly (fictional)',
    keywords: ['nap', 'alertness', 'performance'],
    abstract:
      'A ten-minute afternoon nap improved reaction time and self-rated alertness for about two and a half hours; a thirty-minute nap caused grogginess for the first half hour after waking.',
  },
  {
    id: 'P-105',
    title: 'Daytime naps protect newly learned facts from interference',
    authors: 'Dubois, L., Njoroge, P. and Ahmed, S.',
    year: 2023,
    venue: 'Memory and Learning (fictional)',
    keywords: ['nap', 'sleep', 'memory', 'interference'],
    abstract:
      'Students who napped for 60 minutes after learning 50 facts recalled 12% more of them after a second, interfering learning session than students who watched a video instead.',
  },
  {
    id: 'P-106',
    title: 'Caffeine versus a nap for afternoon learning',
    authors: 'Oyelaran, K. and Fischer, J.',
    year: 2018,
    venue: 'Psychopharmacology Briefs (fictional)',
    keywords: ['nap', 'caffeine', 'learning', 'memory'],
    abstract:
      'In a crossover study with 32 adults, a 45-minute nap improved recall of a word list learned afterwards; 200 mg of caffeine improved attention but not recall.',
  },
  {
    id: 'P-107',
    title: 'Screen light before bed delays sleep onset in teenagers',
    authors: 'Rossi, G. and Hallström, E.',
    year: 2021,
    venue: 'Adolescent Health Notes (fictional)',
    keywords: ['sleep', 'light', 'adolescents', 'circadian'],
    abstract:
      'Two hours of bright tablet use before bed delayed sleep onset by 24 minutes on average in 51 teenagers; dimmed, warm-tinted screens halved the delay.',
  },
  {
    id: 'P-108',
    title: 'Spaced retrieval practice outlasts cramming after a week',
    authors: 'Herrera, N. and Park, J.',
    year: 2017,
    venue: 'Educational Psychology Review (fictional)',
    keywords: ['learning', 'memory', 'spacing', 'retrieval'],
    abstract:
      'Spacing three retrieval sessions over a week doubled one-week retention of vocabulary compared with the same study time in a single session.',
  },
];

/** Papers whose title, keywords or abstract contain every word of the query, best first. */
export function searchPapers(query: string): Paper[] {
  const words = query
    .toLowerCase()
    .split(/\W+/)
    .filter((w) => w.length > 2);
  if (words.length === 0) return [];
  const scored = PAPERS.map((paper) => {
    const haystack = `${paper.title} ${paper.keywords.join(' ')} ${paper.abstract}`.toLowerCase();
    const matched = words.filter((w) => haystack.includes(w.replace(/s$/, '')));
    const inKeywords = words.filter((w) => paper.keywords.some((k) => k.startsWith(w.replace(/s$/, '')))).length;
    return { paper, score: matched.length === words.length ? 10 * inKeywords + matched.length : 0 };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.paper.id.localeCompare(b.paper.id))
    .map((s) => s.paper);
}
