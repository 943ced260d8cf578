/**
 * The seed's lifecycle table, row by row, written the way a skill author would test it: with
 * renderAgent, acting as the model does. (The core package tests the same rules on the session.)
 */
import {
  Agent,
  createAgentStore,
  Instructions,
  Skill,
  scriptedModel,
  Text,
  Tool,
  textOf,
  useAgentStore,
} from '@skilltree/core';
import { AppendTool } from '@skilltree/test-kit';
import { callTool, cleanup, readSkill, renderAgent, reply } from '@skilltree/testing';
import { useEffect, useRef, useState } from 'react';
import { afterEach, describe, expect, test } from 'vitest';

afterEach(cleanup);

const notes = createAgentStore('seed-notes', () => ({ saved: [] as string[] }));
const mounts: string[] = [];

function Notes() {
  const [drafts, setDrafts] = useState(0);
  const visits = useRef(0);
  const saved = useAgentStore(notes, (s) => s.saved);
  useEffect(() => {
    mounts.push('mount');
    return () => {
      mounts.push('unmount');
    };
  }, []);
  return (
    <>
      <Instructions>Keep notes short.</Instructions>
      <Text>
        Drafts: {drafts}, visits: {visits.current}
      </Text>
      <Text>Saved: {saved.join(', ') || 'none'}</Text>
      <Tool
        name="draft"
        description="Start a draft"
        run={() => {
          visits.current += 1;
          setDrafts((n) => n + 1);
          return 'drafting';
        }}
      />
      <AppendTool
        store={notes}
        list="saved"
        name="save_note"
        description="Save a note"
        field="text"
        reply={(text) => `saved ${text}`}
      />
    </>
  );
}

const Other = ({ name }: { name: string }) => (
  <>
    <Text>{name} ready</Text>
    <Tool name={`${name}_go`} description={`Use ${name}`} run={() => `${name} went`} />
  </>
);

const NotesAgent = () => (
  <Agent maxLoadedSkills={2}>
    <Instructions>You help with notes.</Instructions>
    <Skill name="notes" description="Write notes">
      <Notes />
    </Skill>
    <Skill name="calendar" description="Plan days">
      <Other name="calendar" />
    </Skill>
    <Skill name="mail" description="Send mail">
      <Other name="mail" />
    </Skill>
  </Agent>
);

/** Loads notes, uses it, then reads two other skills so notes is pushed out (maxLoadedSkills 2). */
async function useThenUnload() {
  const agent = renderAgent(<NotesAgent />);
  await agent.callTool('read_skill', { name: 'notes' });
  await agent.callTool('draft');
  await agent.callTool('save_note', { text: 'buy milk' });
  await agent.callTool('read_skill', { name: 'calendar' });
  await agent.callTool('read_skill', { name: 'mail' });
  expect(agent.getSkill('notes').loaded).toBe(false);
  return agent;
}

describe('when a skill unloads', () => {
  test('its instructions and text leave <current_context>', async () => {
    const agent = await useThenUnload();
    expect(agent.queryByText('Keep notes short.')).toBeNull();
    expect(agent.queryByText(/Saved:/)).toBeNull();
    expect(agent.getByText('calendar ready')).toBeTruthy();
  });

  test('its tools leave the request, and a call of one is refused with Unknown tool that the model reads', async () => {
    const agent = await useThenUnload();
    expect(agent.queryByTool('save_note')).toBeNull();
    const refused = await agent.callTool('save_note', { text: 'again' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^Unknown tool: save_note \(skill "notes" is not loaded; read it first/);
    // The refusal is in the transcript the next request carries.
    expect(agent.request().messages.at(-1)).toEqual(refused);
  });

  test('its useState and refs are gone: reading it again starts from its initial state', async () => {
    mounts.length = 0;
    const agent = await useThenUnload();
    expect(mounts).toEqual(['mount', 'unmount']);
    await agent.readSkill('notes');
    expect(mounts).toEqual(['mount', 'unmount', 'mount']);
    expect(agent.getByText('Drafts: 0, visits: 0')).toBeTruthy();
  });

  test('its createAgentStore state stays, and is there when the skill is read again', async () => {
    const agent = await useThenUnload();
    expect(agent.session.store(notes).getState().saved).toEqual(['buy milk']);
    await agent.readSkill('notes');
    expect(agent.getByText('Saved: buy milk')).toBeTruthy();
  });

  test('its tool calls and results stay in the transcript, including the contextChanged lines', async () => {
    const agent = await useThenUnload();
    const contents = agent.transcript.map(textOf).join('\n');
    expect(contents).toContain('saved buy milk');
    expect(contents).toContain('contextChanged notes added: Saved: buy milk');
    expect(contents).toContain('contextChanged notes unloaded');
  });

  test('what the caller and the agent said while it was active stays', async () => {
    const agent = renderAgent(<NotesAgent />, {
      model: scriptedModel([
        readSkill('notes'),
        reply('Notes are open.'),
        readSkill('calendar'),
        readSkill('mail'),
        reply('Mail is open.'),
      ]),
    });
    await agent.say('open my notes');
    await agent.say('now mail please');
    expect(agent.getSkill('notes').loaded).toBe(false);
    const said = agent.transcript.filter((m) => m.role !== 'tool' && textOf(m)).map(textOf);
    expect(said).toEqual(['open my notes', 'Notes are open.', 'now mail please', 'Mail is open.']);
  });
});

describe('while skills are loaded', () => {
  test("every loaded skill's tools work, not only the active skill's", async () => {
    const agent = renderAgent(<NotesAgent />);
    await agent.readSkill('notes');
    await agent.readSkill('calendar');
    expect(agent.getSkill('calendar').active).toBe(true);
    const result = await agent.callTool('save_note', { text: 'from calendar time' });
    expect(result.isError).toBeUndefined();
  });

  test('reading a loaded skill again makes it active without remounting', async () => {
    mounts.length = 0;
    const agent = renderAgent(<NotesAgent />);
    await agent.readSkill('notes');
    await agent.callTool('draft');
    await agent.readSkill('calendar');
    await agent.readSkill('notes');
    expect(agent.getSkill('notes').active).toBe(true);
    expect(mounts).toEqual(['mount']);
    expect(agent.getByText('Drafts: 1, visits: 1')).toBeTruthy();
  });

  test('no tool unloads a skill: it stays loaded until newer reads push it out', async () => {
    const agent = renderAgent(<NotesAgent />);
    await agent.readSkill('notes');
    for (let i = 0; i < 4; i++) await agent.callTool('save_note', { text: `n${i}` });
    await agent.readSkill('calendar');
    expect(agent.session.loadedSkills).toEqual(['notes', 'calendar']);
  });
});

test('callTool step builders and say agree with the model loop', async () => {
  const agent = renderAgent(<NotesAgent />, {
    model: scriptedModel([readSkill('notes'), callTool('save_note', { text: 'x' }), reply('Saved.')]),
  });
  const turn = await agent.say('save x');
  expect(turn.text).toBe('Saved.');
  expect(agent.session.store(notes).getState().saved).toEqual(['x']);
});
