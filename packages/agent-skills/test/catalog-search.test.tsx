/**
 * Folder skills in a searched catalog (SPEC §20): the index holds each SKILL.md body from the
 * start, so the model finds a folder by what its instructions say before it ever reads it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, createSession, scriptedModel } from '@skilltree/core';
import { estimateTokens } from '@skilltree/core/provider';
import { cloneElement, type ReactElement } from 'react';
import { describe, expect, test } from 'vitest';
import { loadSkillFolders, SkillFolder } from '../src/index.js';
import { call, fixture } from './helpers.js';

describe('folder skills in a searched catalog', () => {
  test('a folder skill is found by its SKILL.md body before it is ever read', async () => {
    const session = createSession(
      <Agent catalog="search">
        <SkillFolder path={fixture('skills', 'code-review')} />
        <SkillFolder path={fixture('skills', 'pdf-forms')} keywords={['tax forms']} />
      </Agent>,
      { model: scriptedModel([]) },
    );
    expect(session.request().system).not.toContain('code-review');
    // "diff" is only in code-review's SKILL.md body, never in its name or description.
    const found = await call(session, 'search_skills', { query: 'read the diff' });
    expect(found.content.split('\n')[0]).toBe('code-review — Review a change for bugs, naming and tests.');
    const byKeyword = await call(session, 'search_skills', { query: 'tax' });
    expect(byKeyword.content.split('\n')[0]).toMatch(/^pdf-forms — /);
    session.dispose();
  });

  test('a pinned folder skill stays listed in the system prompt of a searched catalog', () => {
    const session = createSession(
      <Agent catalog="search">
        <SkillFolder path={fixture('skills', 'code-review')} pinned />
        <SkillFolder path={fixture('skills', 'pdf-forms')} />
      </Agent>,
      { model: scriptedModel([]) },
    );
    expect(session.request().system).toContain('- code-review — Review a change for bugs, naming and tests.');
    expect(session.request().system).not.toContain('pdf-forms');
    session.dispose();
  });
});

/**
 * The real corpus of core's catalog benchmark (packages/core/bench/corpus, sources and licences in
 * its README): every SKILL.md folder of six public repositories, asked as a user would ask.
 */
const corpus = new URL('../../core/bench/corpus/', import.meta.url);
const asked: { query: string; expected: string[] }[] = JSON.parse(
  readFileSync(new URL('queries.json', corpus), 'utf8'),
);

/** Every real folder, one loadSkillFolders call per source; a name an earlier source took becomes `<source>-<name>`. */
function realFolders(): ReactElement[] {
  const first = ['anthropics', 'openai', 'vercel'];
  const rest = readdirSync(corpus, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !first.includes(d.name))
    .map((d) => d.name)
    .sort();
  const taken = new Set<string>();
  return [...first, ...rest].flatMap((source) =>
    loadSkillFolders(new URL(`${source}/`, corpus), { onWarning: () => {} }).map((el) => {
      const key = String(el.key);
      const name = taken.has(key) ? `${source}-${key}` : key;
      taken.add(name);
      return name === key ? el : cloneElement(el as ReactElement<{ name?: string }>, { name, key: name });
    }),
  );
}

describe('a searched catalog over a few hundred real SKILL.md folders', () => {
  const folders = realFolders();
  const firstRequestTokens = (catalog: 'list' | 'search') => {
    const session = createSession(<Agent catalog={catalog}>{folders}</Agent>, { model: scriptedModel([]) });
    const request = session.request();
    session.dispose();
    return estimateTokens(request.system) + estimateTokens(JSON.stringify(request.tools));
  };

  test('the right real skill is in the top 5 of search_skills for most user requests', async () => {
    expect(folders.length).toBeGreaterThanOrEqual(200);
    expect(asked.length).toBeGreaterThanOrEqual(80);
    const session = createSession(<Agent catalog="search">{folders}</Agent>, { model: scriptedModel([]) });
    const missed: string[] = [];
    for (const { query, expected } of asked) {
      const found = await call(session, 'search_skills', { query });
      const top = found.content
        .split('\n')
        .slice(0, 5)
        .map((line) => line.split(' — ')[0]);
      if (!top.some((name) => expected.includes(name))) missed.push(`${query} → ${expected.join(' | ')}`);
    }
    session.dispose();
    const recall = 1 - missed.length / asked.length;
    console.log(
      `recall@5 over ${folders.length} real folders: ${(recall * 100).toFixed(1)}% of ${asked.length} queries; missed:\n${missed.join('\n')}`,
    );
    expect(recall).toBeGreaterThanOrEqual(0.8);
  });

  test('the first request of a searched catalog is a small fraction of a listed one over the real folders', () => {
    const listed = firstRequestTokens('list');
    const searched = firstRequestTokens('search');
    console.log(
      `first request over ${folders.length} real folders: list ${listed} tokens, search ${searched} tokens (${((searched / listed) * 100).toFixed(1)}%)`,
    );
    expect(searched / listed).toBeLessThan(0.1);
  });
});
