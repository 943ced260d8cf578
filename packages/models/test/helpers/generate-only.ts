/**
 * An adapter without its `stream`: a session on it calls `generate` at every step, so a test can run
 * the same conversation both ways.
 */
import type { Model } from '@skilltree/core';

/**
 * `model` seen through `generate` alone. It keeps the name and `appendOnly` (a model bound to its
 * prefix gets the same append-only requests either way); nothing else of the adapter is carried.
 */
export function generateOnly(model: Model): Model {
  return { name: model.name, appendOnly: model.appendOnly, generate: (req, opts) => model.generate(req, opts) };
}

/** `model` itself when `streamed`, else {@link generateOnly}: the two ways a both-ways test runs. */
export function streamedOrNot(model: Model, streamed: boolean): Model {
  return streamed ? model : generateOnly(model);
}
