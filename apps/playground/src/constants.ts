/** The prefix of the lines the runtime appends to messages (mirrors `CONTEXT_CHANGED` in @skilltree/core). */
export const CONTEXT_CHANGED = 'contextChanged';
