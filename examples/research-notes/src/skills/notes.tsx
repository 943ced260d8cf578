import { Instructions, Text, Tool, useAgentStore } from '@skilltree/core';
import { z } from 'zod';
import { formatNote, notebook, SHOWN_NOTES } from '../notebook.js';

/**
 * The notebook skill. Notes live in a store, so they outlast this skill; the skill renders only
 * the latest {@link SHOWN_NOTES}, so the context stays small however long the research runs.
 */
export function Notes() {
  const notes = useAgentStore(notebook, (s) => s.notes);
  const latest = notes.slice(-SHOWN_NOTES);
  return (
    <>
      <Instructions>
        {`Add one note per finding: a short sentence with numbers where there are some, and its source id. Only the latest ${SHOWN_NOTES} notes are shown below; search_notes finds older ones.`}
      </Instructions>
      <Text>
        {notes.length === 0
          ? 'No notes yet.'
          : `${notes.length} notes; the latest ${latest.length}:\n${latest.map(formatNote).join('\n')}`}
      </Text>
      <Tool
        name="add_note"
        description="Add a note to the notebook."
        input={z.object({
          topic: z.string().min(2).max(40).describe('A short topic label, e.g. "naps"'),
          text: z.string().min(5).max(400).describe('The finding, in one or two sentences'),
          source: z.string().optional().describe('Where it comes from, e.g. P-101'),
        })}
        run={({ topic, text, source }, ctx) => {
          const store = notebook.of(ctx);
          const id = `N-${store.getState().notes.length + 1}`;
          store.setState((s) => ({ notes: [...s.notes, { id, topic: topic.toLowerCase(), text, source }] }));
          return `Added ${id}.`;
        }}
      />
      <Tool
        name="search_notes"
        description="Search every note (not only the ones shown) by word or topic."
        input={z.object({ query: z.string().min(2).describe('A word or topic') })}
        run={({ query }, ctx) => {
          const needle = query.toLowerCase();
          const hits = notebook
            .of(ctx)
            .getState()
            .notes.filter((n) => n.topic.includes(needle) || n.text.toLowerCase().includes(needle));
          return hits.length === 0 ? `No notes mention "${query}".` : hits.map(formatNote).join('\n');
        }}
      />
    </>
  );
}
