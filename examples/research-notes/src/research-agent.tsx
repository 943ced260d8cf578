import { Agent, Instructions, Skill } from '@skilltree/core';
import { useState } from 'react';
import { Researcher } from './researcher.js';
import { Notes } from './skills/notes.js';
import { Publish } from './skills/publish.js';
import { Sources } from './skills/sources.js';
import { createMemoryWiki, type WikiClient, WikiProvider } from './wiki.js';

export interface ResearchNotesProps {
  /** Where publish_notes writes. Default: an in-memory wiki, one per session. */
  wiki?: WikiClient;
}

/**
 * A research assistant with room for two skills at a time, so the notes skill is unloaded and
 * read again during a conversation, and its notes, which live in a store, come back with it. A
 * `researcher` subagent answers a question from the library in a context of its own.
 */
export function ResearchNotes({ wiki }: ResearchNotesProps) {
  const [client] = useState(() => wiki ?? createMemoryWiki());
  return (
    <Agent maxLoadedSkills={2}>
      <Instructions>
        You are a research assistant. Find sources, read them, and keep notes the user can build on. Be precise about
        numbers and always say which source a claim comes from.
      </Instructions>
      <Researcher />
      <WikiProvider wiki={client}>
        <Skill name="sources" description="Search the library and read abstracts">
          <Sources />
        </Skill>
        <Skill name="notes" description="Add and search research notes; shows the latest ones">
          <Notes />
        </Skill>
        <Skill name="publish" description="Publish notes to the team wiki">
          <Publish />
        </Skill>
      </WikiProvider>
    </Agent>
  );
}
