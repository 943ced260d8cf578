/**
 * The catalog index on its own: field weights, incremental updates (a skill added, removed,
 * re-rendered), bodies kept after an unload, and removals that outnumber the live skills.
 */
import { describe, expect, test } from 'vitest';
import { CatalogIndex, processTerm } from '../src/host/catalog-index.js';
import type { SkillEntry, TreeSnapshot } from '../src/host/serialize.js';

function entry(name: string, description: string, extra: { lines?: string[]; props?: object } = {}): SkillEntry {
  return {
    name,
    description,
    owner: 'Test',
    node: { props: { name, description, ...extra.props } } as unknown as SkillEntry['node'],
    lines: extra.lines ?? [],
    tools: [],
    sources: [],
    problems: [],
  };
}

function snap(entries: SkillEntry[]): TreeSnapshot {
  return { skills: entries, skillsByName: new Map(entries.map((e) => [e.name, e])) } as TreeSnapshot;
}

const names = (index: CatalogIndex, query: string) => index.search(query, 5).map((m) => m.name);

describe('the catalog index', () => {
  test('field weights: a match in the name outranks the same word in a body', () => {
    const index = new CatalogIndex();
    index.sync(
      snap([
        entry('notes', 'Keep notes', { props: { searchText: 'Invoices are mentioned here once.' } }),
        entry('invoices', 'Bill customers'),
      ]),
    );
    expect(names(index, 'invoices')).toEqual(['invoices', 'notes']);
  });

  test('words meet across forms and stopwords count for nothing', () => {
    expect(processTerm('Testing')).toBe(processTerm('tests'));
    expect(processTerm('the')).toBeNull();
    const index = new CatalogIndex();
    index.sync(snap([entry('qa', 'Tests web apps'), entry('other', 'Something else')]));
    expect(names(index, 'how do I test the app')).toEqual(['qa']);
  });

  test('the index updates incrementally: an added, removed or re-rendered skill is found (or not) without a rebuild', () => {
    const index = new CatalogIndex();
    const a = entry('alpha', 'First');
    const b = entry('beta', 'Second');
    index.sync(snap([a, b]));
    expect(names(index, 'gamma')).toEqual([]);
    const c = entry('gamma', 'Third');
    index.sync(snap([a, b, c]));
    expect(names(index, 'gamma')).toEqual(['gamma']);
    index.sync(snap([a, c]));
    expect(names(index, 'second')).toEqual([]);
    const rendered = entry('alpha', 'First', { lines: ['Mentions a zebra.'] });
    index.sync(snap([rendered, c]));
    expect(names(index, 'zebra')).toEqual(['alpha']);
    // Unloaded again (no lines): what it rendered last stays indexed.
    index.sync(snap([entry('alpha', 'First'), c]));
    expect(names(index, 'zebra')).toEqual(['alpha']);
    expect(index.size).toBe(2);
  });

  test('many removals (a compaction) leave every live skill findable and no removed one', () => {
    const index = new CatalogIndex();
    const all = Array.from({ length: 300 }, (_, i) => entry(`s${i}`, `Skill about topic${i}`));
    index.sync(snap(all));
    const kept = all.filter((_, i) => i % 3 === 0);
    index.sync(snap(kept));
    expect(index.size).toBe(100);
    for (const e of kept) expect(names(index, `topic${e.name.slice(1)}`)[0]).toBe(e.name);
    expect(names(index, 'topic1')).toEqual([]);
  });

  test('closest names to an unknown one: within two edits first, then by its words', () => {
    const index = new CatalogIndex();
    index.sync(snap([entry('pdf-forms', 'Fill PDF forms'), entry('git-helper', 'Git'), entry('pdf-merge', 'Merge')]));
    expect(index.closest('pdf-form')[0]).toBe('pdf-forms');
    expect(index.closest('git')).toContain('git-helper');
  });
});
