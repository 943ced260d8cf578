import { loadedSkills } from '../state/reads.js';
import type { SessionState } from '../state/state.js';
import type { UnloadReason } from '../types/session.js';
import { active, end, fail, SPAN_KIND, start } from './tracing.js';

/** Runs a skill read inside its `load_skill {name}` span; unloads it causes nest under it. */
export async function traceLoad<T extends { ok: boolean; error?: string; mounted?: boolean; unloaded?: string[] }>(
  state: SessionState,
  name: string,
  load: () => Promise<T>,
): Promise<T> {
  const tracing = active(state);
  if (!tracing) return load();
  const open = start(tracing, `load_skill ${name}`, SPAN_KIND.internal, {
    'skilltree.operation.name': 'load_skill',
    'skilltree.skill': name,
  });
  try {
    const outcome = await load();
    if (open.span.isRecording()) {
      if (outcome.ok) {
        open.span.setAttributes({
          'skilltree.skill.mounted': outcome.mounted === true,
          'skilltree.skills.loaded': [...loadedSkills(state)],
        });
        if (outcome.unloaded?.length) open.span.setAttribute('skilltree.skill.unloaded', outcome.unloaded);
      } else {
        fail(open, new Error(outcome.error ?? 'The read was refused.'), 'The skill load', 'skill_refused');
      }
    }
    return outcome;
  } catch (error) {
    fail(open, error, 'The skill load');
    throw error;
  } finally {
    end(open);
  }
}

/**
 * Records each of the session's unloads as an `unload_skill {name}` span under whatever caused it (a
 * load, a tool call, a turn): the state layer emits `skill-unloaded`, and this listens, first of all.
 */
export function traceUnloads(state: SessionState): void {
  const listeners = state.listeners.get('skill-unloaded') ?? new Set();
  listeners.add((event) => {
    if (event.type === 'skill-unloaded') traceUnload(state, event.name, event.reason);
  });
  state.listeners.set('skill-unloaded', listeners);
}

function traceUnload(state: SessionState, name: string, why: UnloadReason | undefined): void {
  const tracing = active(state);
  if (!tracing) return;
  const open = start(tracing, `unload_skill ${name}`, SPAN_KIND.internal, {
    'skilltree.operation.name': 'unload_skill',
    'skilltree.skill': name,
  });
  if (why && open.span.isRecording()) {
    open.span.setAttribute('skilltree.skill.unload_reason', why.reason);
    if (why.reason === 'lru') open.span.setAttribute('skilltree.skill.unloaded_by', why.by);
    // What broke is the skill's error text: content, like an error message.
    if (why.reason === 'error' && tracing.recordContent) {
      open.span.setAttribute('skilltree.skill.unload_detail', why.detail);
    }
  }
  end(open);
}
