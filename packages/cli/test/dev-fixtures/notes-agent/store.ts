import { createAgentStore } from '@skilltree/core';

export const notesStore = createAgentStore('notes', () => ({ notes: [] as string[] }));
