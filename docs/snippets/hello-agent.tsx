import { Agent, Instructions, Skill, Text, Tool } from '@skilltree/core';
import { useState } from 'react';
import { z } from 'zod';

function Notes() {
  const [notes, setNotes] = useState<string[]>([]);
  return (
    <>
      <Instructions>Keep notes short. Read them back when asked.</Instructions>
      <Text>Notes: {notes.length > 0 ? notes.join('; ') : 'none yet'}</Text>
      <Tool
        name="add_note"
        description="Save a note"
        input={z.object({ text: z.string().min(1) })}
        run={({ text }) => {
          setNotes((all) => [...all, text]);
          return `Saved: ${text}`;
        }}
      />
    </>
  );
}

export const NotesAgent = () => (
  <Agent>
    <Instructions>You are a helpful assistant.</Instructions>
    <Skill name="notes" description="Take and read back notes">
      <Notes />
    </Skill>
  </Agent>
);
