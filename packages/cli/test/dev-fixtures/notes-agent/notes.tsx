import { Instructions, Text, useAgentStore } from '@skilltree/core';
import { AppendTool } from '@skilltree/test-kit';
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
      <AppendTool store={notesStore} list="notes" name="add_note" description="Add a note" field="text" />
    </>
  );
}
