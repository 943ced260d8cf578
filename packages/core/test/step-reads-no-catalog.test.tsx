/**
 * Request building runs every model step: its cost grows with the window and the loaded skills,
 * never with the catalog. A commit that changed what some skills render is read from those skills
 * alone (the reconciler's commits say which children of the agent changed); the catalog is walked
 * again only when its shape changed (a skill added, removed, moved, renamed, re-described, pinned).
 * Counted in host-node visits, not in time.
 */
import { useState } from 'react';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { TreeSnapshot } from '../src/host/serialize.js';
import { skillVisits } from '../src/host/tree-update.js';
import { Agent, Instructions, restoreSession, Skill, Text, Tool } from '../src/index.js';
import { stateOf } from '../src/sessions/session.js';
import { tree } from '../src/state/state.js';
import { call } from './fixtures.js';
import { mountTree } from './mount-tree.js';

const CATALOG = 2000;
const NAMES = Array.from({ length: CATALOG }, (_, i) => `skill_${i}`);

function Counted({ name }: { name: string }) {
  const [count, setCount] = useState(0);
  return (
    <>
      <Text>
        {name} calls: {count}
      </Text>
      <Tool
        name={`${name}_tool`}
        description={`Counts ${name}`}
        input={z.object({})}
        run={() => {
          setCount((c) => c + 1);
          return 'ok';
        }}
      />
    </>
  );
}

function Big({ catalog }: { catalog: 'list' | 'search' }) {
  return (
    <Agent catalog={catalog}>
      <Instructions>You help.</Instructions>
      {NAMES.map((name, i) => (
        <Skill key={name} name={name} description={`Skill number ${i}`}>
          <Counted name={name} />
        </Skill>
      ))}
    </Agent>
  );
}

/** How many `<Skill>` host nodes `run` made the serializer visit. */
async function visits(run: () => unknown): Promise<number> {
  const before = skillVisits.count;
  await run();
  return skillVisits.count - before;
}

describe('a step reads only what its commit changed, never the whole catalog', () => {
  for (const catalog of ['search', 'list'] as const) {
    test(`a tool call that re-renders its skill, then the next request, visits that skill only (${catalog}, ${CATALOG} skills)`, async () => {
      const loadedSkills = ['skill_0', 'skill_1', 'skill_2'];
      const session = restoreSession(<Big catalog={catalog} />, {
        version: 1,
        transcript: [],
        loadedSkills,
        stores: {},
      });
      session.request();
      const before = tree(stateOf(session));
      const step = await visits(async () => {
        await call(session, 'skill_1_tool');
        return session.request();
      });
      expect(step).toBeLessThanOrEqual(1);
      const after = tree(stateOf(session));
      expect(after).not.toBe(before);
      expect(after.skillsByName.get('skill_1')?.lines).toEqual(['skill_1 calls: 1']);
      // The snapshot taken before keeps what it held.
      expect(before.skillsByName.get('skill_1')?.lines).toEqual(['skill_1 calls: 0']);
      expect(JSON.stringify(session.request())).toContain('skill_1 calls: 1');
      session.dispose();
    });
  }

  test('loading a skill (and unloading the least recently read) visits the skills whose state changed', async () => {
    const session = restoreSession(<Big catalog="search" />, {
      version: 1,
      transcript: [],
      loadedSkills: ['skill_0', 'skill_1', 'skill_2'],
      stores: {},
    });
    session.request();
    const load = await visits(async () => {
      await session.readSkill('skill_500');
      return session.request();
    });
    expect(load).toBeLessThanOrEqual(4);
    expect(session.loadedSkills).toEqual(['skill_1', 'skill_2', 'skill_500']);
    expect(session.request().tools.map((t) => t.name)).toContain('skill_500_tool');
    expect(session.request().tools.map((t) => t.name)).not.toContain('skill_0_tool');
    session.dispose();
  });
});

/** What a snapshot says, as plain data. */
function said(snap: TreeSnapshot) {
  return {
    instructions: snap.instructions,
    agentLines: snap.agentLines,
    skills: snap.skills.map((s) => ({ name: s.name, description: s.description, lines: s.lines })),
    byName: [...snap.skillsByName].map(([name, s]) => [name, s.description, s.lines]),
    count: snap.skillCount,
    pinned: snap.pinned.map((s) => s.name),
    searched: snap.searched,
    tools: snap.tools.map((t) => `${t.skill}:${t.name}`),
    problems: snap.problems.map((p) => p.message),
    clashes: snap.clashes.map((c) => c.name),
  };
}

interface Shape {
  note: string;
  names: string[];
  pinned?: string;
  described?: string;
  text?: string;
  agentTool?: number;
}

function Shaped({ note, names, pinned, described, text = 't', agentTool = 0 }: Shape) {
  return (
    <Agent catalog="auto" catalogListLimit={3}>
      <Instructions>Be brief.</Instructions>
      {names.map((name, i) => (
        <Skill
          key={names.indexOf(name) === i ? name : `${name}-${i}`}
          name={name}
          description={name === described ? 'Described again' : `About ${name}`}
          pinned={name === pinned}
        >
          <Text>
            {name} says {text}
          </Text>
          <Tool name={i === 1 ? 'shared' : `${name}_do`} description="Does it" run={() => 'ok'} />
        </Skill>
      ))}
      {agentTool > 0 && <Tool name="shared" description="Agent's own" run={() => 'ok'} />}
      <Text>{note}</Text>
      {agentTool > 1 && <Tool name="bad name!" description="Invalid" run={() => 'ok'} />}
    </Agent>
  );
}

describe('an updated snapshot says what a whole read of the same tree says', () => {
  const steps: Shape[] = [
    { note: 'a', names: ['one', 'two', 'three', 'four'] },
    { note: 'a', names: ['one', 'two', 'three', 'four'], text: 'u' },
    { note: 'b', names: ['one', 'two', 'three', 'four'], text: 'u' },
    { note: 'b', names: ['one', 'two', 'three', 'four'], text: 'u', agentTool: 1 },
    { note: 'b', names: ['one', 'two', 'three', 'four'], text: 'v', agentTool: 2 },
    { note: 'b', names: ['one', 'two', 'three', 'four', 'five'], text: 'v', agentTool: 2 },
    { note: 'b', names: ['one', 'three', 'two', 'five'], text: 'v' },
    { note: 'b', names: ['one', 'three', 'two', 'five'], text: 'w', pinned: 'two' },
    { note: 'c', names: ['one', 'three', 'two', 'five'], text: 'w', pinned: 'two', described: 'three' },
    { note: 'c', names: ['one', 'one', 'two'], text: 'x' },
    { note: 'c', names: ['one', 'two'], text: 'y', pinned: 'one' },
  ];
  for (const loaded of [
    ['one', 'two'],
    ['two', 'five'],
    ['one', 'two', 'three', 'four', 'five'],
  ]) {
    test(`every commit, loaded ${loaded.join(', ')}`, () => {
      const live = mountTree(loaded);
      for (const step of steps) {
        live.render(<Shaped {...step} />);
        const fresh = mountTree(loaded);
        fresh.render(<Shaped {...step} />);
        expect(said(live.read())).toEqual(said(fresh.read()));
      }
    });
  }
});
