/**
 * The searched catalog (issue 34, SPEC §20): over `catalogListLimit` skills (or with
 * `catalog="search"`) the system prompt names no skills; the model finds them with `search_skills`
 * and loads them with `read_skill`, by exact name.
 */
import { useState } from 'react';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createSession,
  Instructions,
  type Session,
  Skill,
  type SkillRanker,
  scriptedModel,
  Text,
  Tool,
  textOf,
} from '../src/index.js';
import { call } from './fixtures.js';

/** `n` generated skills named skill-0 … skill-(n-1). */
function many(n: number) {
  return Array.from({ length: n }, (_, i) => String(i)).map((i) => (
    <Skill key={i} name={`skill-${i}`} description={`Generated skill number ${i}`}>
      <Instructions>Body of skill {i}.</Instructions>
    </Skill>
  ));
}

const Realistic = ({ extra = null as React.ReactNode }) => (
  <>
    <Skill
      name="pdf-forms"
      description="Fill in and flatten PDF forms"
      searchText="Use pypdf to read form fields, fill them and write a flattened copy of the document."
    >
      <Instructions>Read the fields first.</Instructions>
    </Skill>
    <Skill name="git-helper" description="Work with git repositories" keywords={['rebase', 'cherry-pick']}>
      <Instructions>Never force-push to main.</Instructions>
    </Skill>
    <Skill name="weather" description="Forecasts for a city">
      <Instructions>Quote temperatures in Celsius and mention the barometric pressure.</Instructions>
      <Tool
        name="forecast"
        description="Forecast for a city"
        input={z.object({ city: z.string() })}
        run={() => 'sun'}
      />
    </Skill>
    <Skill name="spreadsheets" description="Edit spreadsheets" pinned>
      <Instructions>Keep formulas.</Instructions>
    </Skill>
    {extra}
  </>
);

/** A session of the realistic catalog in search mode, with `n` generated skills and the app's `ranker` if given. */
function searchSession(n = 0, ranker?: SkillRanker) {
  return createSession(
    <Agent catalog="search" {...(ranker ? { skillSearch: ranker } : {})}>
      <Realistic />
      {n > 0 ? many(n) : null}
    </Agent>,
  );
}

async function search(session: Session, query: string, limit?: number) {
  const result = await call(session, 'search_skills', limit === undefined ? { query } : { query, limit });
  return textOf(result);
}

describe('a searched catalog', () => {
  test('catalog="auto" lists up to catalogListLimit skills (default 30) and searches above', () => {
    const listed = createSession(<Agent>{many(30)}</Agent>);
    expect(listed.request().system).toContain('- skill-29 — Generated skill number 29');
    expect(listed.request().tools.map((t) => t.name)).toEqual(['read_skill']);
    const searched = createSession(<Agent>{many(31)}</Agent>);
    expect(searched.request().system).not.toContain('skill-0');
    expect(searched.request().tools.map((t) => t.name)).toEqual(['read_skill', 'search_skills']);
    const limited = createSession(<Agent catalogListLimit={3}>{many(4)}</Agent>);
    expect(limited.request().tools.map((t) => t.name)).toEqual(['read_skill', 'search_skills']);
    const forcedList = createSession(<Agent catalog="list">{many(40)}</Agent>);
    expect(forcedList.request().system).toContain('- skill-39');
  });

  test('in search mode the system prompt names no skills, only how to find them, and pinned skills', () => {
    const session = createSession(
      <Agent catalog="search">
        <Instructions>You help.</Instructions>
        <Realistic />
      </Agent>,
    );
    const { system } = session.request();
    expect(system).toBe(
      "You help.\n\n## Skills\nMore skills exist than are listed here. Call search_skills with what you need, in a few words, to find them; then call read_skill with a skill's name to load its instructions and tools. At most 3 stay loaded; reading another unloads the least recently read.\nAlways available:\n- spreadsheets — Edit spreadsheets",
    );
  });

  test("search mode's catalog machinery is the same few hundred characters at 20 and 2,000 skills", () => {
    const small = createSession(<Agent catalog="search">{many(20)}</Agent>).request();
    const large = createSession(<Agent catalog="search">{many(2000)}</Agent>).request();
    expect(large.system).toBe(small.system);
    expect(large.tools).toEqual(small.tools);
    const machinery = large.system.length + JSON.stringify(large.tools).length;
    expect(machinery / 4).toBeLessThan(500);
  });

  test("search_skills returns one match per line, best first, each starting with the skill's name, then its description", async () => {
    const session = searchSession(10);
    const text = await search(session, 'fill a PDF form');
    expect(text.split('\n')[0]).toBe('pdf-forms — Fill in and flatten PDF forms');
    const all = await search(session, 'generated skill number');
    expect(all.split('\n')).toHaveLength(5);
    for (const line of all.split('\n')) expect(line).toMatch(/^skill-\d+ — Generated skill number \d+$/);
    expect((await search(session, 'generated skill', 2)).split('\n')).toHaveLength(2);
  });

  test('a search that finds nothing says so and how to search again; bad input names the field', async () => {
    const session = searchSession();
    expect(await search(session, 'zzzqqq')).toBe(
      'No skill matches "zzzqqq". Search again with other words: the task, a tool or a file type.',
    );
    const bad = await call(session, 'search_skills', { query: '' });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('query');
    const badLimit = await call(session, 'search_skills', { query: 'pdf', limit: 0 });
    expect(textOf(badLimit)).toContain('limit');
  });

  test('the search ranks by body and keywords: a searchText body, <Skill keywords>, and what a skill rendered once loaded', async () => {
    const session = searchSession(10);
    expect((await search(session, 'pypdf')).split('\n')[0]).toMatch(/^pdf-forms/);
    expect((await search(session, 'cherry-pick a commit')).split('\n')[0]).toMatch(/^git-helper/);
    // Unread, the weather skill's instructions are unknown; once rendered, they are indexed and stay so.
    expect(await search(session, 'barometric')).toMatch(/^No skill matches/);
    await session.readSkill('weather');
    for (let i = 0; i < 3; i++) await session.readSkill(`skill-${i}`);
    expect(session.loadedSkills).not.toContain('weather');
    expect((await search(session, 'barometric pressure')).split('\n')[0]).toMatch(/^weather/);
    expect((await search(session, 'forecast')).split('\n')[0]).toMatch(/^weather/);
  });

  test('read_skill loads any skill by its exact name in search mode', async () => {
    const session = searchSession(50);
    const result = await call(session, 'read_skill', { name: 'skill-42' });
    expect(textOf(result)).toContain('Loaded skill "skill-42"');
    expect(session.request().context).toContain('Body of skill 42.');
  });

  test("an unknown name's error suggests the closest matches and how to search", async () => {
    const session = searchSession(50);
    const result = await call(session, 'read_skill', { name: 'pdf-form' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Unknown skill: "pdf-form"\. Closest: pdf-forms/);
    expect(textOf(result)).toContain('Call search_skills to find a skill by what it does');
    // Never the whole catalog.
    expect(textOf(result)).not.toContain('skill-49');
  });

  test('the index follows the catalog: an added, removed or re-rendered skill is found (or not) by the next search', async () => {
    function Notes() {
      const [note, setNote] = useState('nothing yet');
      return (
        <>
          <Text>Note: {note}</Text>
          <Tool
            name="set_note"
            description="Set the note"
            input={z.object({ note: z.string() })}
            run={({ note }) => {
              setNote(note);
              return 'ok';
            }}
          />
        </>
      );
    }
    const agent = (extra: React.ReactNode) => (
      <Agent catalog="search">
        <Realistic extra={extra} />
        <Skill name="notes" description="Keep notes">
          <Notes />
        </Skill>
      </Agent>
    );
    const session = createSession(agent(null));
    expect(await search(session, 'kubernetes')).toMatch(/^No skill matches/);
    await session.rerender(agent(<Skill name="k8s" description="Deploy to kubernetes clusters" />));
    expect((await search(session, 'kubernetes')).split('\n')[0]).toMatch(/^k8s/);
    await session.rerender(agent(null));
    expect(await search(session, 'kubernetes')).toMatch(/^No skill matches/);
    await session.readSkill('notes');
    await call(session, 'set_note', { note: 'the flamingo migrates' });
    expect((await search(session, 'flamingo')).split('\n')[0]).toMatch(/^notes/);
  });

  test("an app's ranker replaces the built-in ranking; names outside the catalog are dropped", async () => {
    const seen: string[] = [];
    const ranker: SkillRanker = async (query, skills, { limit, rank }) => {
      seen.push(`${query}:${skills.length}:${limit}`);
      return ['nope', { name: 'weather', score: 1 }, ...rank(query, limit)];
    };
    const session = searchSession(0, ranker);
    const text = await search(session, 'pdf', 2);
    expect(text).toBe('weather — Forecasts for a city\npdf-forms — Fill in and flatten PDF forms');
    expect(seen).toEqual(['pdf:4:2']);
  });

  test('a ranker that throws makes the search an error result the model reads; the session goes on', async () => {
    const ranker: SkillRanker = () => {
      throw new Error('the embeddings service is down');
    };
    const session = searchSession(0, ranker);
    const result = await call(session, 'search_skills', { query: 'pdf' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Tool "search_skills" failed: the embeddings service is down');
    expect(textOf(await call(session, 'read_skill', { name: 'pdf-forms' }))).toContain('Loaded skill "pdf-forms"');
  });

  test('a catalog change in search mode changes nothing already sent (append-only: system and earlier items byte-identical)', async () => {
    const model = scriptedModel(
      [
        { toolCalls: [{ name: 'search_skills', input: { query: 'pdf' } }] },
        { text: 'found it' },
        { toolCalls: [{ name: 'search_skills', input: { query: 'kubernetes' } }] },
        { text: 'found that too' },
      ],
      { appendOnly: true },
    );
    const agent = (extra: React.ReactNode) => (
      <Agent catalog="search">
        <Realistic extra={extra} />
      </Agent>
    );
    const session = createSession(agent(null), { model });
    await session.send('I need a PDF form');
    await session.rerender(agent(<Skill name="k8s" description="Deploy to kubernetes clusters" />));
    await session.send('and kubernetes');
    const requests = model.requests.map((r) => r.appendOnly!);
    for (let k = 1; k < requests.length; k++) {
      expect(requests[k].system).toBe(requests[0].system);
      expect(JSON.stringify(requests[k].tools)).toBe(JSON.stringify(requests[0].tools));
      const before = requests[k - 1].items;
      expect(JSON.stringify(requests[k].items.slice(0, before.length))).toBe(JSON.stringify(before));
    }
    expect(JSON.stringify(requests.at(-1)!.items)).toContain('k8s — Deploy to kubernetes clusters');
  });

  test('search_skills keeps the tool-name rules: an agent tool of that name is a developer error, a skill tool of that name is refused', async () => {
    expect(() =>
      createSession(
        <Agent catalog="search">
          <Tool name="search_skills" description="mine" run={() => 'x'} />
          <Realistic />
        </Agent>,
      ),
    ).toThrow('clashes with the built-in tool that searches the catalog');
    const session = createSession(
      <Agent catalog="search">
        <Realistic />
        <Skill name="shadow" description="Shadows search">
          <Tool name="search_skills" description="mine" run={() => 'x'} />
        </Skill>
      </Agent>,
    );
    const result = await call(session, 'read_skill', { name: 'shadow' });
    expect(textOf(result)).toContain('would shadow the built-in tool that searches skills');
    expect(session.loadedSkills).toEqual([]);
    expect(() => createSession(<Agent catalog={'everything' as 'list'}>{many(2)}</Agent>)).toThrow(
      'Invalid <Agent catalog="everything">',
    );
  });
});
