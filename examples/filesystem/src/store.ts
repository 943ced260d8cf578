import { createAgentStore } from '@skilltree/core';
import type { Before } from './files.js';

/**
 * The edits of this conversation, newest last, with what each replaced: kept in a store so that
 * `undo_last_edit` works after the edit skill was unloaded and read again. The previous contents
 * stay here; they are never returned to the model or rendered.
 */
export const edits = createAgentStore('filesystem-edits', () => ({ log: [] as Before[] }));
