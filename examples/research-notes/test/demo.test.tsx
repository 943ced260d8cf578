import type { ToolMessage } from '@skilltree/core';
import { playDemo } from '@skilltree/test-kit';
import { renderAgent } from '@skilltree/testing';
import { expect, test } from 'vitest';
import ResearchNotesAgent, { demo } from '../agent.js';
import { notebook } from '../src/notebook.js';
import { createMemoryWiki } from '../src/wiki.js';
import { own, text } from './helpers.js';

test('the demo plays end to end', async () => {
  const wiki = createMemoryWiki();
  const { agent, model, replies } = await playDemo(demo, (model) =>
    renderAgent(<ResearchNotesAgent wiki={wiki} />, { model }),
  );
  expect(model.remaining).toBe(0);

  expect(replies).toEqual([
    'I found 4 papers:\n- P-101: Slow-wave sleep and the consolidation of word-pair memories (Almeida, R. and Okafor, T., 2021)\n- P-102: One night without sleep: hippocampal encoding the next day (Lindqvist, M., Zhou, H. and Baptiste, C., 2019)\n- P-103: REM sleep and emotional memory: a replication (Kowalski, A. and Mensah, E., 2022)\n- P-105: Daytime naps protect newly learned facts from interference (Dubois, L., Njoroge, P. and Ahmed, S., 2023)',
    'Noted three findings: slow-wave sleep and consolidation (P-101), deprivation (P-102), REM and emotion (P-103).',
    'Short naps help alertness (P-104); longer ones protect and help memory (P-105, P-106). Noted.',
    'Published all 7 notes: https://wiki.example.com/research/sleep-and-memory',
    'From our notes: One night without sleep: 40% worse encoding of new pictures, less hippocampal activity. (P-102)',
  ]);

  // notes was pushed out by publish, then read again: the store kept all seven notes.
  const reads = agent.transcript
    .filter((m): m is ToolMessage => m.role === 'tool' && m.name === 'read_skill')
    .map((m) => own(m));
  expect(reads).toEqual([
    'Loaded skill "sources"; it is now active.',
    'Loaded skill "notes"; it is now active.',
    'Skill "sources" was already loaded; it is now active.',
    'Loaded skill "publish"; it is now active. Unloaded "notes" (least recently read).',
    'Loaded skill "notes"; it is now active. Unloaded "sources" (least recently read).',
  ]);
  expect(
    agent.session
      .store(notebook)
      .getState()
      .notes.map((n) => n.id),
  ).toEqual(['N-1', 'N-2', 'N-3', 'N-4', 'N-5', 'N-6', 'N-7']);
  // Only the latest five are rendered; N-2 was found with search_notes.
  expect(agent.getByText('7 notes; the latest 5:').skill).toBe('notes');
  expect(agent.queryByText(/^N-2 /)).toBeNull();
  expect(agent.getByText(/^N-3 \[emotion\]/)).toBeTruthy();
  const search = agent.transcript.findLast((m) => m.role === 'tool' && m.name === 'search_notes');
  expect(search && text(search)).toBe(
    'N-2 [deprivation] One night without sleep: 40% worse encoding of new pictures, less hippocampal activity. (P-102)',
  );
  // Reading notes again recorded the five lines it shows, as contextChanged lines.
  const reread = agent.transcript.filter((m) => m.role === 'tool' && m.name === 'read_skill').at(-1)!;
  expect(
    text(reread)
      .split('\n')
      .filter((l) => l.startsWith('contextChanged notes added: N-')),
  ).toHaveLength(5);

  // Three read_abstract calls went out in one assistant message, and ran in order.
  const batch = agent.transcript.find((m) => m.role === 'assistant' && (m.toolCalls?.length ?? 0) === 3)!;
  expect(batch.role === 'assistant' && batch.toolCalls?.map((c) => c.input)).toEqual([
    { id: 'P-101' },
    { id: 'P-102' },
    { id: 'P-103' },
  ]);
  expect(wiki.pages.get('sleep-and-memory')?.body.split('\n')[0]).toBe(
    '- N-1 [consolidation] More slow-wave sleep: 18% better word-pair recall next morning, tracking spindles. (P-101)',
  );
});
