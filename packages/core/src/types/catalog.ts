/**
 * The skill catalog at scale: how an agent shows its skills to the model (listed in the system
 * prompt, or found with the `search_skills` tool), and the shape of a ranker an app can plug in.
 */

/** How the catalog reaches the model: listed in the system prompt, found by search, or chosen by size. */
export type CatalogMode = 'list' | 'search' | 'auto';

/** One skill as the catalog search sees it. */
export interface CatalogSkill {
  name: string;
  description: string;
  /** `<Skill keywords>`. */
  keywords: readonly string[];
  /**
   * What the index knows of the skill's body: its `searchText` (a SKILL.md body, say), and its
   * instructions, text and tools as last rendered in this session (empty until it was first loaded).
   */
  body: string;
  /** `<Skill pinned>`: listed in the system prompt even in search mode. */
  pinned: boolean;
}

/** One search hit: a skill name and its score (higher is better; only the order matters). */
export interface SkillMatch {
  name: string;
  score: number;
}

/** What a {@link SkillRanker} gets besides the query and the skills. */
export interface SkillRankerOptions {
  /** How many matches the model asked for (default 5). */
  limit: number;
  /** The built-in ranking (MiniSearch, BM25+ over name, description, keywords and body): rerank its top hits, or fall back to it. */
  rank: (query: string, limit: number) => SkillMatch[];
}

/**
 * An app's own ranker for `search_skills` (embeddings, a reranker, a remote index): returns skill
 * names (or matches), best first. Names the catalog does not hold are dropped; the first `limit`
 * are kept. May be async: the search is a tool call.
 */
export type SkillRanker = (
  query: string,
  skills: readonly CatalogSkill[],
  options: SkillRankerOptions,
) => readonly (string | SkillMatch)[] | Promise<readonly (string | SkillMatch)[]>;

/** Props of `<Agent>` that shape the catalog. */
export interface CatalogOptions {
  /**
   * `'list'`: every skill in the system prompt. `'search'`: none there (only pinned ones); the model
   * finds skills with the `search_skills` tool. `'auto'` (default): list up to `catalogListLimit`
   * skills, search above.
   */
  catalog?: CatalogMode;
  /** The most skills `catalog="auto"` lists before it searches. Default 30. */
  catalogListLimit?: number;
  /** Ranks `search_skills` queries instead of the built-in index (see {@link SkillRanker}). */
  skillSearch?: SkillRanker;
}
