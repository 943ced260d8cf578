/**
 * A load or an unload renders the skills whose state it changed, never the whole catalog: each
 * `<Skill>` listens for its own name, and the session tells the names a change may have moved
 * (those loaded now and those rendered loaded before). Every render of a `<Skill>` reads its state
 * from the runtime, so the names read are the skills rendered (or checked) again.
 */
import { describe, expect, test } from 'vitest';
import { Agent, Instructions, restoreSession, type Session, Skill } from '../src/index.js';
import { stateOf } from '../src/sessions/session.js';

const CATALOG = 2000;
const NAMES = Array.from({ length: CATALOG }, (_, i) => `skill_${i}`);

function Big() {
  return (
    <Agent catalog="search">
      <Instructions>You help.</Instructions>
      {NAMES.map((name, i) => (
        <Skill key={name} name={name} description={`Skill number ${i}`}>
          <Instructions>Body of skill {i}.</Instructions>
        </Skill>
      ))}
    </Agent>
  );
}

/** A session of `<Big />` whose loaded set is full (`skill_0`, `skill_1`, `skill_2`), its tree read once. */
function fullSession(): Session {
  const session = restoreSession(<Big />, {
    version: 1,
    transcript: [],
    loadedSkills: ['skill_0', 'skill_1', 'skill_2'],
    stores: {},
  });
  session.request();
  return session;
}

/** The names whose state `<Skill>`s read while `run` ran. */
async function read(session: Session, run: () => Promise<unknown>): Promise<Set<string>> {
  const runtime = stateOf(session).runtime;
  const own = runtime.skillState;
  const names = new Set<string>();
  runtime.skillState = (name) => {
    names.add(name);
    return own(name);
  };
  try {
    await run();
  } finally {
    runtime.skillState = own;
  }
  return names;
}

describe('a load or an unload renders the skills it moved, never the whole catalog', () => {
  test(`reading a skill when the loaded set is full (${CATALOG} skills) reads the state of the skills it moved only`, async () => {
    const session = fullSession();
    const names = await read(session, () => session.readSkill('skill_700'));
    expect(session.loadedSkills).toEqual(['skill_1', 'skill_2', 'skill_700']);
    expect([...names].sort()).toEqual(['skill_0', 'skill_1', 'skill_2', 'skill_700']);
    expect(JSON.stringify(session.request())).toContain('Body of skill 700.');
    expect(JSON.stringify(session.request())).not.toContain('Body of skill 0.');
    session.dispose();
  });

  test('reading a loaded skill again (it becomes the active one) asks the loaded skills only', async () => {
    const session = fullSession();
    const names = await read(session, () => session.readSkill('skill_0'));
    expect(session.loadedSkills).toEqual(['skill_1', 'skill_2', 'skill_0']);
    expect([...names].sort()).toEqual(['skill_0', 'skill_1', 'skill_2']);
    session.dispose();
  });
});
