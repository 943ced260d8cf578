/**
 * The pure parts of `skilltree dev`: timeline entries and reload summaries, built from core's view
 * of real sessions (context lines by section, core's line diff), and the asset lookup.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, createSession, Instructions, placeContext, Skill, Text, Tool } from '@skilltree/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
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
