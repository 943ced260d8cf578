import { Instructions, Text, Tool, useAgentStore } from '@skilltree/core';
import { z } from 'zod';
import { notesStore } from './store.js';

export function NoteList() {
  const notes = useAgentStore(notesStore, (s) => s.notes);
  return <Text>Notes: {notes.join(', ') || 'none'}</Text>;
}

export function Notes() {
  return (
    <>
      <Instructions>Keep the user's notes short. Version 1.</Instructions>
      <NoteList />
      <Tool
        name="add_note"
        description="Add a note"
        input={z.object({ text: z.string() })}
        run={({ text }, ctx) => {
          notesStore.of(ctx).setState((s) => ({ notes: [...s.notes, text] }));
          return `added ${text}`;
        }}
      />
    </>
  );
}
