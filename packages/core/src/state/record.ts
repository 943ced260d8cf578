/**
 * Recording: the context changes a message carries (loads, unloads, lines the context
 * gained), the lifecycle log's entries for it, and the message itself.
 */
import { captureSections, diffSections, type Sections } from '../lifecycle/context-changes.js';
import { currentSkills, lifecycleChanges, record } from '../lifecycle/log.js';
import { withContextChanges } from '../parts/message-parts.js';
import { appendMessage, transcriptLength } from '../transcript/transcript.js';
import type { ContextChange, Message, UserPart } from '../types/messages.js';
import { config } from './config.js';
import { emit } from './events.js';
import { type SessionState, tree } from './state.js';

/** The context sections as they are now. */
export function sections(state: SessionState): Sections {
  return captureSections(tree(state), state.skills.loaded);
}

/** The context changes not recorded yet: loads and unloads, then lines the context gained (`now`: the sections as they are). */
export function unrecordedChanges(state: SessionState, now: Sections = sections(state)): ContextChange[] {
  return [...state.told.pending, ...diffSections(state.told.baseline, now, config(state).contextLineLimit)];
}

/**
 * Takes the pending context changes: they go into the message being recorded. The lifecycle
 * changes (loads, unloads, tools) are recorded with the same message.
 */
export function takeChanges(state: SessionState, quiet = false): ContextChange[] {
  // One capture serves as what changed and as the next baseline: nothing renders in between.
  const now = sections(state);
  const changes = unrecordedChanges(state, now);
  state.told.pending = [];
  state.told.baseline = now;
  const current = currentSkills(tree(state), state.skills.loaded, config(state).readToolName);
  const entries = lifecycleChanges(state.told.log, current, state.skills.mounts);
  state.told.log = record(state.told.log, transcriptLength(state.window.transcript), entries, state.skills.mounts);
  if (changes.length > 0 && !quiet) emit(state, { type: 'context-changed', changes });
  return changes;
}

/** Messages in the transcript that nobody was told about yet: announce them, or take them back. */
export interface StagedMessage {
  /** Emits what recording them emits (for each: its context changes, the message, a tool's result). */
  announce(): void;
  /** Takes them back: the transcript, the pending changes, the lifecycle log and the window are as before. */
  undo(): void;
}

/**
 * Appends messages without telling anyone, each made by `make` from the pending context changes it
 * takes, so that a turn can build its first request from them and take them back when that request
 * may not be sent (a budget refused it): then nothing was recorded.
 */
export function stageMessages(state: SessionState, makers: ((changes: ContextChange[]) => Message)[]): StagedMessage {
  const before = {
    pendingChanges: state.told.pending,
    baseline: state.told.baseline,
    lifecycle: state.told.log,
    windowStart: state.window.start,
    messages: state.window.transcript.messages.length,
    users: state.window.transcript.userIndices.length,
    fileBytes: state.window.transcript.fileBytes,
  };
  const staged = makers.map((make) => {
    const changes = takeChanges(state, true);
    const message = make(changes);
    appendMessage(state.window.transcript, message);
    return { changes, message };
  });
  return {
    announce() {
      for (const { changes, message } of staged) {
        if (changes.length > 0) emit(state, { type: 'context-changed', changes });
        emit(state, { type: 'message', message });
        if (message.role === 'tool') emit(state, { type: 'tool-result', message });
      }
    },
    undo() {
      state.window.transcript.messages.length = before.messages;
      state.window.transcript.userIndices.length = before.users;
      state.window.transcript.fileBytes = before.fileBytes;
      state.told.pending = before.pendingChanges;
      state.told.baseline = before.baseline;
      state.told.log = before.lifecycle;
      state.window.start = before.windowStart;
    },
  };
}

/** The user message that starts a turn (with the pending context changes), staged (see {@link stageMessages}). */
export function stageUserMessage(state: SessionState, parts: UserPart[]): StagedMessage {
  return stageMessages(state, [(changes) => ({ role: 'user', content: withContextChanges(parts, changes) })]);
}

export function pushMessage(state: SessionState, message: Message): void {
  appendMessage(state.window.transcript, message);
  emit(state, { type: 'message', message });
}
