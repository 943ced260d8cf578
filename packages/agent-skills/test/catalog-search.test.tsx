/**
 * Folder skills in a searched catalog (SPEC §20): the index holds each SKILL.md body from the
 * start, so the model finds a folder by what its instructions say before it ever reads it.
 */
import { Agent, createSession, scriptedModel } from '@skilltree/core';
import { describe, expect, test } from 'vitest';
import { SkillFolder } from '../src/index.js';
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
