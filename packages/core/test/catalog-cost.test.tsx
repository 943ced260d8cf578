/**
 * Request building runs every model step, so its cost must not grow with the catalog: the search
 * decision and the pinned skills are taken once, when a tree snapshot is built, and comparing two
 * snapshots' searched catalogs reads the pinned skills only, never the whole catalog.
 */
import { useState } from 'react';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { searching } from '../src/host/catalog.js';
import { sameSystem } from '../src/host/prompt.js';
import type { TreeSnapshot } from '../src/host/serialize.js';
import { Agent, createSession, Instructions, type Session, Skill, Tool } from '../src/index.js';
import { stateOf } from '../src/sessions/session.js';
import { tree } from '../src/state/state.js';
import { call } from './fixtures.js';

function many(n: number) {
  return Array.from({ length: n }, (_, i) => `skill-${i}`).map((name, i) => (
    <Skill key={name} name={`skill-${i}`} description={`Generated skill number ${i}`}>
      <Instructions>Body of skill {i}.</Instructions>
    </Skill>
  ));
}

/** The snapshot with its catalog made untouchable: any read of `skills` fails the test. */
function catalogUnread(snap: TreeSnapshot): TreeSnapshot {
  const trap = new Proxy([] as TreeSnapshot['skills'], {
    get() {
      throw new Error('the whole catalog was read');
    },
  });
  return { ...snap, skills: trap };
}

function App({ pinned = false }: { pinned?: boolean }) {
  const [pin, setPin] = useState(pinned);
  const [n, setN] = useState(0);
  return (
    <Agent catalog="search">
      <Instructions>You help.</Instructions>
      <Skill name="notes" description="Take notes" pinned={pin}>
        <Instructions>Keep them short. Round {n}.</Instructions>
        <Tool
          name="again"
          description="Re-render the notes skill"
          input={z.object({})}
          run={() => {
            setN((x) => x + 1);
            return 'ok';
          }}
        />
        <Tool
          name="pin"
          description="Pin the notes skill"
          input={z.object({})}
          run={() => {
            setPin(true);
            return 'pinned';
          }}
        />
      </Skill>
      <Skill name="always" description="Always there" pinned />
      {many(500)}
    </Agent>
  );
}

const snapOf = (session: Session) => tree(stateOf(session));

describe('request building does not grow with the catalog', () => {
  test('comparing two searched catalogs reads the pinned skills, never the whole catalog', async () => {
    const session = createSession(<App />);
    await session.readSkill('notes');
    const before = snapOf(session);
    await call(session, 'again', {});
    const after = snapOf(session);
    expect(after).not.toBe(before);
    expect(after.pinned.map((s) => s.name)).toEqual(['always']);
    expect(sameSystem(catalogUnread(before), catalogUnread(after))).toBe(true);
    expect(session.request().system).toContain('- always — Always there');
  });

  test('pinning a skill in search mode changes the system prompt; comparing still reads the pinned only', async () => {
    const session = createSession(<App />);
    await session.readSkill('notes');
    const system = session.request().system;
    const before = snapOf(session);
    await call(session, 'pin', {});
    const after = snapOf(session);
    expect(after.pinned.map((s) => s.name)).toEqual(['notes', 'always']);
    expect(sameSystem(catalogUnread(before), catalogUnread(after))).toBe(false);
    expect(session.request().system).not.toBe(system);
    expect(session.request().system).toContain('- notes — Take notes\n- always — Always there');
  });

  test('whether the catalog is searched is decided once per snapshot, also under catalog="auto"', () => {
    const auto = snapOf(createSession(<Agent>{many(31)}</Agent>));
    expect(searching(catalogUnread(auto))).toBe(true);
    const listed = snapOf(createSession(<Agent>{many(30)}</Agent>));
    expect(searching(catalogUnread(listed))).toBe(false);
    const limited = snapOf(createSession(<Agent catalogListLimit={3}>{many(4)}</Agent>));
    expect(searching(catalogUnread(limited))).toBe(true);
    const none = snapOf(createSession(<Agent catalog="search" />));
    expect(searching(catalogUnread(none))).toBe(false);
  });
});
