import { createAgentStore } from '@skilltree/core';

export interface Note {
  /** `N-1`, `N-2`, … in the order they were added. */
  id: string;
  topic: string;
  text: string;
  /** Where the finding comes from, e.g. a paper id. */
  source?: string;
}

/**
 * The notebook: every note of the conversation. A store, so notes survive the notes skill being
 * unloaded; the skill renders only the latest few, and search_notes finds the rest.
 */
export const notebook = createAgentStore('research-notebook', () => ({ notes: [] as Note[] }));

/** How many of the latest notes the notes skill renders into `<current_context>`. */
export const SHOWN_NOTES = 5;

export function formatNote(note: Note): string {
  return `${note.id} [${note.topic}] ${note.text}${note.source ? ` (${note.source})` : ''}`;
}
