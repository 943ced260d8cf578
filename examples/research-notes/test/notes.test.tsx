import { renderAgent } from '@skilltree/testing';
import { describe, expect, test } from 'vitest';
import { searchPapers } from '../src/corpus.js';
import { notebook } from '../src/notebook.js';
import { ResearchNotes } from '../src/research-agent.js';
import { ok, text } from './helpers.js';

async function withNotes(count: number) {
  const agent = renderAgent(<ResearchNotes />);
  await agent.callTool('read_skill', { name: 'notes' });
  for (let i = 1; i <= count; i++) {
    ok(
      await agent.callTool('add_note', {
        topic: i % 2 ? 'Odd' : 'even',
        text: `finding number ${i}`,
        source: `P-${i}`,
      }),
    );
  }
  return agent;
}

describe('notes skill', () => {
  test('starts empty, and add_note records the new line as a contextChanged line', async () => {
    const agent = renderAgent(<ResearchNotes />);
    await agent.callTool('read_skill', { name: 'notes' });
    expect(agent.getSkill('notes').text).toContain('No notes yet.');
    const added = await agent.callTool('add_note', { topic: 'Naps', text: 'Short naps help.', source: 'P-104' });
    expect(text(added)).toBe(
      'Added N-1.\ncontextChanged notes added: 1 notes; the latest 1:\ncontextChanged notes added: N-1 [naps] Short naps help. (P-104)',
    );
  });

  test('renders only the latest five notes; search_notes finds every one', async () => {
    const agent = await withNotes(8);
    expect(agent.session.store(notebook).getState().notes).toHaveLength(8);
    const shown = agent
      .getSkill('notes')
      .text.split('\n')
      .filter((l) => l.startsWith('N-'));
    expect(shown).toEqual([
      'N-4 [even] finding number 4 (P-4)',
      'N-5 [odd] finding number 5 (P-5)',
      'N-6 [even] finding number 6 (P-6)',
      'N-7 [odd] finding number 7 (P-7)',
      'N-8 [even] finding number 8 (P-8)',
    ]);
    expect(agent.getByText('8 notes; the latest 5:').skill).toBe('notes');
    expect(agent.queryByText(/^N-1 /)).toBeNull();
    expect(ok(await agent.callTool('search_notes', { query: 'number 1' }))).toBe('N-1 [odd] finding number 1 (P-1)');
    expect(ok(await agent.callTool('search_notes', { query: 'odd' })).split('\n')).toHaveLength(4);
    expect(ok(await agent.callTool('search_notes', { query: 'caffeine' }))).toBe('No notes mention "caffeine".');
  });

  test('adding a note records only the lines it added, not the whole list again', async () => {
    const agent = await withNotes(6);
    const added = await agent.callTool('add_note', { topic: 'odd', text: 'finding number 7' });
    expect(text(added).split('\n').slice(1)).toEqual([
      'contextChanged notes added: 7 notes; the latest 5:',
      'contextChanged notes added: N-7 [odd] finding number 7',
    ]);
  });

  test('notes survive the skill unloading, and come back when it is read again', async () => {
    const agent = await withNotes(3);
    // Room for two skills: reading sources and publish pushes notes out.
    await agent.callTool('read_skill', { name: 'sources' });
    await agent.callTool('read_skill', { name: 'publish' });
    expect(agent.session.loadedSkills).toEqual(['sources', 'publish']);
    expect(agent).not.toHaveLoadedSkill('notes');
    expect(agent.getSkill('notes')).toMatchObject({ text: '', tools: [] });
    expect(agent).not.toHaveTool('add_note');
    expect(agent.session.store(notebook).getState().notes).toHaveLength(3);

    const back = await agent.callTool('read_skill', { name: 'notes' });
    expect(text(back)).toContain('Unloaded "sources" (least recently read).');
    expect(text(back)).toContain('contextChanged notes added: N-3 [odd] finding number 3 (P-3)');
    expect(ok(await agent.callTool('add_note', { topic: 'more', text: 'finding number 4' }))).toBe('Added N-4.');
  });
});

describe('sources skill', () => {
  test('search_papers ranks keyword matches; read_abstract reads one', async () => {
    expect(searchPapers('sleep memory').map((p) => p.id)).toEqual(['P-101', 'P-102', 'P-103', 'P-105']);
    expect(searchPapers('naps').map((p) => p.id)).toEqual(['P-104', 'P-105', 'P-106']);
    const agent = renderAgent(<ResearchNotes />);
    await agent.callTool('read_skill', { name: 'sources' });
    expect(ok(await agent.callTool('search_papers', { query: 'caffeine' }))).toBe(
      'P-106: Caffeine versus a nap for afternoon learning (Oyelaran, K. and Fischer, J., 2018)',
    );
    expect(ok(await agent.callTool('read_abstract', { id: 'p-104' }))).toMatch(/^P-104: Ten-minute naps/);
    const missing = await agent.callTool('read_abstract', { id: 'P-999' });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toMatch(/No paper P-999/);
  });
});
