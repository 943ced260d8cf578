import { Instructions, Tool } from '@skilltree/core';
import { z } from 'zod';
import { PAPERS, searchPapers } from '../corpus.js';

/** Search the library and read abstracts. */
export function Sources() {
  return (
    <>
      <Instructions>
        Search with a few keywords. Read a paper's abstract before you note anything from it, and cite it by id. The
        library is small and fictional: say so if the user asks where the papers come from.
      </Instructions>
      <Tool
        name="search_papers"
        description="Search the library by keywords; returns ids, titles and years."
        input={z.object({ query: z.string().min(2).describe('Keywords, e.g. "sleep memory"') })}
        run={({ query }) => {
          const hits = searchPapers(query);
          if (hits.length === 0) return `No papers match "${query}". Try fewer or broader keywords.`;
          return hits.map((p) => `${p.id}: ${p.title} (${p.authors}, ${p.year})`).join('\n');
        }}
      />
      <Tool
        name="read_abstract"
        description="Read one paper's abstract."
        input={z.object({ id: z.string().describe('A paper id, e.g. P-101') })}
        run={({ id }) => {
          const paper = PAPERS.find((p) => p.id === id.trim().toUpperCase());
          if (!paper) throw new Error(`No paper ${id}. Ids look like P-101; search_papers lists them.`);
          return `${paper.id}: ${paper.title}\n${paper.authors}, ${paper.venue}, ${paper.year}\n\n${paper.abstract}`;
        }}
      />
    </>
  );
}
