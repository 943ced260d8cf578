/**
 * The model `skilltree serve` gives its sessions. A demo or scripted model is a script with a
 * position, so every chat plays its own copy from the first exchange (one shared copy would hand the
 * second chat the second exchange); it starts again when it runs out, so a chat can go on playing.
 */
import type { Model } from '@skilltree/core';
import { errorMessage } from '../../kit/errors.js';

/** Chats whose copy of the script this process keeps (the oldest go first beyond it). */
const MAX_CHATS = 10_000;

/** A model that starts its script again when it runs out. */
function replaying(create: () => Model): Model {
  let model = create();
  const again = (error: unknown) => /ran out of steps/.test(errorMessage(error));
  const wrapped: Model = {
    name: model.name,
    async generate(req, opts) {
      try {
        return await model.generate(req, opts);
      } catch (error) {
        if (!again(error)) throw error;
        model = create();
        return model.generate(req, opts);
      }
    },
  };
  // A demo that streams keeps streaming (a scripted model does not: it only generates).
  if (model.stream) wrapped.stream = (req, opts) => model.stream!(req, opts);
  return wrapped;
}

/**
 * A function of the chat (its id and owner: Alice's `x` and Bob's `x` are two chats) that gives each
 * chat its own replaying copy of the script, for `createSessions({ model })`. A chat keeps its copy
 * in this process when the sessions' cache lets the session go and mounts it again.
 */
export function scriptPerChat(create: () => Model): (id: string, owner?: string) => Model {
  const copies = new Map<string, Model>();
  return (id, owner) => {
    const chat = JSON.stringify([owner ?? null, id]);
    let model = copies.get(chat);
    if (model) copies.delete(chat);
    else model = replaying(create);
    copies.set(chat, model);
    if (copies.size > MAX_CHATS) copies.delete(copies.keys().next().value as string);
    return model;
  };
}
