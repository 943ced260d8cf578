/**
 * Recording: the `contextChanged` lines a message carries (loads, unloads, lines the context
 * gained), the lifecycle log's entries for it, and the message itself.
 */
import { captureSections, diffSections, type Sections } from './context-changes.js';
import { currentSkills, lifecycleChanges, record } from './lifecycle-log.js';
import { type SessionState, tree } from './state.js';
import { config } from './state-config.js';
import { emit } from './state-events.js';
import { appendMessage, transcriptLength } from './transcript.js';
import type { Message } from './types.js';

/** The context sections as they are now. */
export function sections(state: SessionState): Sections {
  return captureSections(tree(state), state.loaded);
}

/** The `contextChanged` lines not recorded yet: loads and unloads, then lines the context gained. */
export function pendingChanges(state: SessionState): string[] {
  return [...state.pendingLines, ...diffSections(state.baseline, sections(state), config(state).contextLineLimit)];
}

/**
 * Takes the pending `contextChanged` lines: they go into the message being recorded. The lifecycle
 * changes (loads, unloads, tools) are recorded with the same message.
 */
export function takeChanges(state: SessionState): string[] {
  const lines = pendingChanges(state);
  state.pendingLines = [];
  state.baseline = sections(state);
  const current = currentSkills(tree(state), state.loaded, config(state).readToolName);
  const entries = lifecycleChanges(state.lifecycle, current, state.mounts);
  state.lifecycle = record(state.lifecycle, transcriptLength(state.transcript), entries, state.mounts);
  if (lines.length > 0) emit(state, { type: 'context-changed', lines });
  return lines;
}

/** `text` with the pending `contextChanged` lines after it. */
export function withChanges(state: SessionState, text: string): string {
  const lines = takeChanges(state);
  if (lines.length === 0) return text;
  return text === '' ? lines.join('\n') : `${text}\n${lines.join('\n')}`;
}

export function pushMessage(state: SessionState, message: Message): void {
  appendMessage(state.transcript, message);
  emit(state, { type: 'message', message });
}
