/**
 * `search_skills` input is model output, so it is hostile: a limit that is not a whole number from
 * 1 up (NaN, negative, 0, a string) is an error result naming `limit`, a huge one is capped at 50, a
 * missing or empty query names `query`, and a query of a megabyte or of regex and unicode
 * metacharacters is searched as words. None of it throws, and what goes back to the model is
 * bounded: the session and its transcript go on.
 */
import { describe, expect, test } from 'vitest';
import { MAX_SEARCH_LIMIT } from '../src/host/catalog.js';
import { Agent, createSession, Instructions, Skill, textOf } from '../src/index.js';
import { call } from './fixtures.js';

function searchSession(n = 80) {
  return createSession(
    <Agent catalog="search">
      <Skill name="pdf-forms" description="Fill in and flatten PDF forms">
        <Instructions>Read the fields first.</Instructions>
      </Skill>
      {Array.from({ length: n }, (_, i) => `skill-${i}`).map((name, i) => (
        <Skill key={name} name={name} description={`Generated skill number ${i} about forms`} />
      ))}
    </Agent>,
  );
}

async function search(input: unknown) {
  const session = searchSession();
  const result = await call(session, 'search_skills', input);
  return { session, result, text: textOf(result) };
}

describe('search_skills refuses hostile input with an error naming the field, and never throws', () => {
  test.each([
    ['NaN', Number.NaN],
    ['negative', -3],
    ['zero', 0],
    ['a fraction', 2.5],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a string', '5'],
    ['null', null],
    ['an object', { n: 5 }],
  ])('a limit that is %s is an error result naming limit and its range', async (_, limit) => {
    const { result, text, session } = await search({ query: 'pdf forms', limit });
    expect(result.isError).toBe(true);
    expect(text).toBe(
      `Invalid input for tool "search_skills": limit: expected a whole number from 1 to ${MAX_SEARCH_LIMIT}.`,
    );
    // The transcript holds the call and its error result; the next request is fine.
    expect(session.transcript.at(-1)).toMatchObject({ role: 'tool', name: 'search_skills' });
    expect(() => session.request()).not.toThrow();
  });

  test('a limit of 1e9 is capped at the most one search returns', async () => {
    const { result, text } = await search({ query: 'generated skill forms', limit: 1e9 });
    expect(result.isError).toBeFalsy();
    expect(text.split('\n')).toHaveLength(MAX_SEARCH_LIMIT);
  });

  test.each([
    ['missing', { limit: 3 }],
    ['empty', { query: '' }],
    ['blank', { query: ' \n\t ' }],
    ['a number', { query: 42 }],
    ['an array', { query: ['pdf'] }],
  ])('a query that is %s is an error result naming query', async (_, input) => {
    const { result, text } = await search(input);
    expect(result.isError).toBe(true);
    expect(text).toContain('query: expected what you need, in a few words (a non-empty string).');
  });

  test.each([
    ['null', null],
    ['a string that is not JSON', 'find pdf'],
    ['a JSON array', '[1,2]'],
    ['an array', ['pdf']],
    ['a number', 7],
  ])('input that is %s is an error result, not a crash', async (_, input) => {
    const { result, text } = await search(input);
    expect(result.isError).toBe(true);
    expect(text).toMatch(/^Invalid input for tool "search_skills"/);
  });

  test('a query of a megabyte is searched as words, and the result sent back stays small', async () => {
    const huge = `pdf forms ${'x'.repeat(1024 * 1024)}`;
    const { result, text, session } = await search({ query: huge });
    expect(result.isError).toBeFalsy();
    expect(text.split('\n')[0]).toMatch(/^pdf-forms/);
    const nothing = await call(session, 'search_skills', { query: 'q'.repeat(1024 * 1024) });
    expect(nothing.isError).toBeFalsy();
    // The refusal echoes the query, but not a megabyte of it.
    expect(textOf(nothing).length).toBeLessThan(1_000);
    expect(textOf(nothing)).toMatch(/^No skill matches "q+…"/);
  });

  test('a query of regex and unicode metacharacters is searched as words: no throw, no match of everything', async () => {
    const queries = [
      '.*',
      '(a+)+$',
      '[^]\\d{1,}|?*+',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the model's query is this text, placeholder and all
      '${constructor}',
      '__proto__ constructor prototype',
      '\u0000\u0001\u200b\u202e\ufeff',
      '🔥📄 PDF\u0301 forms',
      'ﬁll ＰＤＦ ｆｏｒｍｓ',
      '\ud800 lone surrogate forms',
    ];
    const session = searchSession();
    for (const query of queries) {
      const result = await call(session, 'search_skills', { query });
      expect(result.isError).toBeFalsy();
      const text = textOf(result);
      // Each line is a catalog skill, or the search says nothing matched.
      for (const line of text.split('\n')) expect(line).toMatch(/^(skill-\d+|pdf-forms) — |^No skill matches/);
    }
    expect(textOf(await call(session, 'search_skills', { query: '🔥📄 PDF forms' })).split('\n')[0]).toMatch(
      /^pdf-forms/,
    );
  });

  test('read_skill with a megabyte-long or metacharacter name is refused with closest names, quickly', async () => {
    const session = searchSession(2000);
    const started = process.cpuUsage();
    const result = await call(session, 'read_skill', { name: `pdf-forms${'z'.repeat(1024 * 1024)}` });
    const used = process.cpuUsage(started);
    expect(result.isError).toBe(true);
    expect(textOf(result).length).toBeLessThan(1_000);
    expect(textOf(result)).toContain('Unknown skill');
    // Bounded work: no edit distance over a megabyte against every name (generous for a busy machine).
    expect((used.user + used.system) / 1000).toBeLessThan(5_000);
    const meta = await call(session, 'read_skill', { name: '.*' });
    expect(textOf(meta)).toMatch(/^Unknown skill: "\.\*"\./);
    const proto = await call(session, 'read_skill', { name: '__proto__' });
    expect(textOf(proto)).toMatch(/^Unknown skill: "__proto__"\./);
  });
});
