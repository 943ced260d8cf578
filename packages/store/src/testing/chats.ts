/** Messages, conversations and models the topics of the conformance suite drive chats with. */
import type { Message, SessionStore, Sessions } from '@skilltree/core';
import { fromBase64, type StoredState, textContent } from '@skilltree/core/provider';
import { expect } from 'vitest';
import { bumpModel, PNG } from '../fixture.js';

/** A stored state with `stores` and no loaded skill. */
export const state = (stores: Record<string, unknown> = {}): StoredState => ({ loadedSkills: [], stores });

/** A user message of one text part, as core records one. */
export const user = (text: string): Message => ({ role: 'user', content: textContent(text) });
/** An assistant message of one text part (none for empty text). */
export const reply = (text: string): Message => ({ role: 'assistant', content: textContent(text) });

/**
 * Sends to chat `id` (through `sessions`) until its record reaches `version`: a `say` turn adds
 * three versions (the user message, the reply, the closing commit), a failed turn two.
 */
export async function reachVersion(
  sessions: Sessions,
  store: SessionStore,
  id: string,
  version: number,
): Promise<void> {
  for (let i = 0; ; i++) {
    const left = version - ((await store.record(id))?.version ?? 0);
    if (left === 0) return;
    if (left < 2) throw new Error(`chat ${id} cannot reach version ${version} exactly`);
    if (left % 3 === 0) await sessions.send(id, `say new ${i}`);
    else await sessions.send(id, `fail ${i}`).catch(() => {});
  }
}

/**
 * Two turns of {@link cameraAgent} on chat `id`: the first sends a picture (the model reads the
 * skill, snaps, answers), the second, in `second` (another process, or the same one), goes on.
 */
export async function converse(first: Sessions, second: Sessions, id: string): Promise<void> {
  const picture = { data: fromBase64(PNG), mediaType: 'image/png', filename: 'dot 🦊.png' };
  expect((await first.send(id, 'What is on this picture?', { files: [picture] })).text).toBe('A dot, call 3.');
  expect((await second.send(id, 'And now?')).text).toBe('A dot, call 5.');
}

/** The counter agent's model, reporting `tokens` input tokens per call. */
export function reporting(tokens: number) {
  const model = bumpModel();
  return {
    name: model.name,
    async generate(...args: Parameters<typeof model.generate>) {
      return { ...(await model.generate(...args)), usage: { inputTokens: tokens, outputTokens: 0 } };
    },
  };
}

/**
 * JSON of `data` with the incarnation left out of the call ids a chat's session made
 * (`call_<incarnation>_N` reads `call_N`): what two chats' requests must agree on, byte for byte,
 * when each chat is its own incarnation.
 */
export function unscoped(data: unknown): string {
  return JSON.stringify(data).replace(/call_[0-9a-f]{14}_/g, 'call_');
}
