/**
 * The pure parts of `skilltree dev`: timeline entries and reload summaries, built from core's view
 * of real sessions (context lines by section, core's line diff), and the asset lookup.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  createSession,
  Instructions,
  type ModelRequest,
  type Session,
  Skill,
  scriptedModel,
  Text,
  Tool,
} from '@skilltree/core';
import { placeContext, textContent } from '@skilltree/core/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { firstDifference, prefixChange, requestPrefix } from '../src/commands/dev/prefix-change.js';
import { findPlaygroundAssets } from '../src/commands/dev/server.js';
import { describeReload, sectionLines, Timeline } from '../src/commands/dev/state.js';

function NotesAgent({ version = 1, brief = false }: { version?: number; brief?: boolean }) {
  return (
    <Agent maxLoadedSkills={1}>
      <Instructions>You keep notes.</Instructions>
      <Text>hello</Text>
      <Skill name="notes" description="Write notes" meta={{ files: 2, source: 'notes/SKILL.md' }}>
        <Instructions>Keep notes short. Version {version}.</Instructions>
        <Text>Notes: none</Text>
        <Tool
          name="add_note"
          description="Add a note"
          input={z.object({ text: z.string() })}
          run={() => 'added'}
          meta={{ server: 'notes-mcp', connected: true }}
        />
      </Skill>
      <Skill name="weather" description="Report the weather">
        <Text>Be brief.</Text>
        {brief ? <Tool name="forecast" description="Tomorrow" run={() => 'sunny'} /> : null}
      </Skill>
    </Agent>
  );
}

const info = { turn: 1, step: 1, transcript: 1, generation: 1 };

describe('Timeline', () => {
  it('records per step what was loaded, which tools and context lines changed, and the shared prefix', async () => {
    const session = createSession(<NotesAgent />);
    const timeline = new Timeline();
    const step = (n: number) =>
      timeline.request(session.request(), sectionLines(session.view()), { ...info, step: n }, placeContext);
    expect(step(1)).toMatchObject({
      toolsAdded: ['read_skill'],
      linesAdded: 1,
      lineSamples: ['hello'],
      prefixBytes: 0,
    });

    await session.readSkill('notes');
    timeline.skillLoaded('notes');
    const second = step(2);
    expect(second).toMatchObject({
      loaded: ['notes'],
      toolsAdded: ['add_note'],
      linesAdded: 2,
      lineSamples: ['Keep notes short. Version 1.', 'Notes: none'],
    });
    expect(second.prefixBytes).toBeGreaterThan(0);
    expect(second.prefixBytes).toBeLessThan(second.bytes);

    await session.readSkill('weather');
    timeline.skillLoaded('weather');
    timeline.skillUnloaded('notes');
    expect(step(3)).toMatchObject({
      loaded: ['weather'],
      unloaded: ['notes'],
      toolsRemoved: ['add_note'],
      linesAdded: 1,
      linesRemoved: 2,
      lineSamples: ['Be brief.'],
    });
  });

  it('diffs context lines per section, as contextChanged does: a line that moves to another skill is removed and added', async () => {
    function Moving({ where }: { where: 'a' | 'b' }) {
      return (
        <Agent maxLoadedSkills={2}>
          <Skill name="a" description="A">
            {where === 'a' ? <Text>Shared line</Text> : null}
          </Skill>
          <Skill name="b" description="B">
            {where === 'b' ? <Text>Shared line</Text> : null}
          </Skill>
        </Agent>
      );
    }
    const session = createSession(<Moving where="a" />);
    await session.readSkill('a');
    await session.readSkill('b');
    const timeline = new Timeline();
    timeline.request(session.request(), sectionLines(session.view()), info, placeContext);
    await session.rerender(<Moving where="b" />);
    expect(timeline.request(session.request(), sectionLines(session.view()), info, placeContext)).toMatchObject({
      linesAdded: 1,
      linesRemoved: 1,
      lineSamples: ['Shared line'],
    });
  });
});

/** Feeds every request `session` makes to a fresh timeline, as `skilltree dev` does. */
function follow(session: Session): Timeline {
  const timeline = new Timeline();
  let turn = 0;
  session.on('event', (event) => {
    if (event.type === 'request') {
      if (event.step === 1) turn++;
      timeline.request(
        event.request,
        sectionLines(session.view()),
        { turn, step: event.step, transcript: session.transcript.length, generation: 1 },
        placeContext,
      );
    }
    if (event.type === 'reasoning') timeline.reasoning(event.reasoning.text);
  });
  return timeline;
}

describe('prefix changes', () => {
  it('an append-only session appends within a turn: no step of it changed the prefix, loads and new lines included', async () => {
    const model = scriptedModel(
      [
        { reasoning: 'The notes skill has the tool.', toolCalls: [{ name: 'read_skill', input: { name: 'notes' } }] },
        { reasoning: 'Now add it.', toolCalls: [{ name: 'add_note', input: { text: 'milk' } }] },
        { reasoning: { text: '', providerData: { signature: 'sig' } }, text: 'Noted.' },
        { toolCalls: [{ name: 'read_skill', input: { name: 'weather' } }] },
        { reasoning: 'Weather pushed notes out.', text: 'Sunny.' },
      ],
      { appendOnly: true },
    );
    const session = createSession(<NotesAgent brief />, { model });
    const timeline = follow(session);
    await session.send('Remember milk');
    await session.send('And the weather?');
    expect(timeline.entries.map((e) => [`${e.turn}.${e.step}`, e.appendOnly, e.prefixChange])).toEqual([
      ['1.1', true, null],
      ['1.2', true, null],
      ['1.3', true, null],
      ['2.1', true, null],
      ['2.2', true, null],
    ]);
    // The tools offered changed (weather pushed notes out), the prefix did not: notes say so.
    expect(timeline.entries[4]).toMatchObject({ toolsAdded: ['forecast'], toolsRemoved: ['add_note'] });
    expect(timeline.entries[1].toolsAdded).toEqual(['add_note']);
  });

  it("records each step's reasoning text (empty when hidden), never its signature", async () => {
    const model = scriptedModel([
      { reasoning: 'Load notes first.', toolCalls: [{ name: 'read_skill', input: { name: 'notes' } }] },
      { reasoning: { text: '', providerData: { signature: 'secret-signature' } }, text: 'Done.' },
    ]);
    const session = createSession(<NotesAgent />, { model });
    const timeline = follow(session);
    await session.send('Remember milk');
    expect(timeline.entries.map((e) => e.reasoning)).toEqual([['Load notes first.'], ['']]);
    expect(JSON.stringify(timeline.entries)).not.toContain('secret-signature');
  });

  it('flags the first path where an append-only request is not the previous one plus appended items', () => {
    const user = (text: string) => ({ role: 'user' as const, content: textContent(text) });
    const tools = [{ name: 'read_skill', description: 'Load a skill', inputSchema: { type: 'object' } }];
    const request = (items: ModelRequest['messages']): ModelRequest => ({
      system: 'S',
      context: '',
      tools,
      messages: items,
      contextPlacement: 'end',
      appendOnly: { system: 'S', tools, items },
    });
    const first = requestPrefix(request([user('a'), user('b')]), placeContext);
    const appended = requestPrefix(request([user('a'), user('b'), user('c')]), placeContext);
    expect(prefixChange(first, appended)).toBeNull();
    const edited = requestPrefix(request([user('a'), user('B'), user('c')]), placeContext);
    expect(prefixChange(first, edited)).toEqual({ path: 'items.1.content.0.text', appendOnly: true });
    const gainedPart = requestPrefix(
      request([
        user('a'),
        {
          role: 'user',
          content: [
            ...textContent('b'),
            { type: 'context-changed', changes: [{ kind: 'line', skill: 'agent', text: 'x' }] },
          ],
        },
      ]),
      placeContext,
    );
    expect(prefixChange(first, gainedPart)).toEqual({ path: 'items.1.content.1', appendOnly: true });
    const dropped = requestPrefix(request([user('a')]), placeContext);
    expect(prefixChange(first, dropped)).toEqual({ path: 'items.1', appendOnly: true });
    const newSystem = requestPrefix(
      { ...request([user('a'), user('b')]), appendOnly: { system: 'S2', tools, items: [user('a'), user('b')] } },
      placeContext,
    );
    expect(prefixChange(first, newSystem)).toEqual({ path: 'system', appendOnly: true });
  });

  it('says where a classic request changed its prefix: the context moves to the newest user-role message', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'now', input: {} }] }, { text: 'Noon.' }]);
    function Clock() {
      return (
        <Agent>
          <Text>hello</Text>
          <Tool name="now" description="The time" run={() => '12:00'} />
        </Agent>
      );
    }
    const session = createSession(<Clock />, { model });
    const timeline = follow(session);
    await session.send('What time is it?');
    expect(timeline.entries.map((e) => [e.appendOnly, e.prefixChange])).toEqual([
      [false, null],
      // The first request carried the context in the user message's second part; the next one in the tool result.
      [false, { path: 'messages.0.content.1', appendOnly: false }],
    ]);
  });

  it('compares JSON paths: objects key by key, arrays element by element, growth only where allowed', () => {
    expect(firstDifference({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] }, '')).toBe('a.1.b');
    expect(firstDifference({ a: 1 }, { a: 1, b: 2 }, 'x')).toBe('x.b');
    expect(firstDifference([1], [1, 2], 'list')).toBe('list.1');
    expect(firstDifference([1], [1, 2], 'list', true)).toBeNull();
    expect(firstDifference('abc', 'abd', 'system')).toBe('system');
    expect(firstDifference({ a: [1] }, { a: [1] }, '')).toBeNull();
  });
});

describe('describeReload', () => {
  it('says which skills, tools, schemas and context lines changed, from the views before and after', async () => {
    const session = createSession(<NotesAgent />);
    await session.readSkill('weather');
    const before = session.view();
    await session.rerender(<NotesAgent version={2} brief />);
    expect(describeReload(before, session.view())).toEqual(['tool forecast added']);

    await session.readSkill('notes');
    const loaded = session.view();
    await session.rerender(<NotesAgent version={3} brief />);
    expect(describeReload(loaded, session.view())).toEqual([
      'context + Keep notes short. Version 3.',
      'context − Keep notes short. Version 2.',
    ]);
    expect(describeReload(loaded, loaded)).toEqual(['no change to the prompt or the tools']);
  });
});

describe('findPlaygroundAssets', () => {
  it('prefers an explicit directory with an index.html', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skilltree-assets-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    expect(findPlaygroundAssets(dir)).toBe(dir);
  });
});
