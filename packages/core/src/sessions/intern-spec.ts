/**
 * One object per distinct tool spec in the whole process. Every chat restored from a store (and
 * every record the memory store keeps) holds the specs of the tools it was told about: with 3
 * skills of 20 tools loaded, 60 specs and their JSON Schemas per chat, all alike from chat to chat.
 * Interned, a thousand chats hold them once. Specs are kept by weak reference: one no chat holds
 * any more is collected, and its entry goes with it.
 */

import type { ToolSpec } from '../types/request.js';
import type { StoredState } from './session-store.js';

const interned = new Map<string, WeakRef<ToolSpec>>();
const collected = new FinalizationRegistry<string>((key) => {
  if (interned.get(key)?.deref() === undefined) interned.delete(key);
});

/** The process's one spec equal to `spec` (by name, description and schema, as JSON): `spec` itself the first time. */
export function internToolSpec(spec: ToolSpec): ToolSpec {
  const key = JSON.stringify([spec.name, spec.description, spec.inputSchema]);
  const found = interned.get(key)?.deref();
  if (found) return found;
  interned.set(key, new WeakRef(spec));
  collected.register(spec, key);
  return spec;
}

const internAll = (specs: ToolSpec[]) => {
  for (let i = 0; i < specs.length; i++) specs[i] = internToolSpec(specs[i]);
};

/** Interns, in place, every tool spec a stored state holds (the lifecycle's and the append-only log's). */
export function internStoredSpecs(state: StoredState): void {
  const lifecycle = state.lifecycle;
  if (lifecycle) {
    for (const announced of lifecycle.base ?? []) if (Array.isArray(announced.tools)) internAll(announced.tools);
    for (const record of lifecycle.records ?? []) {
      for (const entry of record.entries ?? []) {
        if (entry.type === 'loaded' && Array.isArray(entry.tools)) internAll(entry.tools);
        else if (entry.type === 'tools' && Array.isArray(entry.added)) internAll(entry.added);
      }
    }
  }
  if (state.sent && Array.isArray(state.sent.tools)) internAll(state.sent.tools);
}
