/**
 * Plays a conversation the way the CLI plays an example's demo: each user message in turn, each
 * waiting for the reply before the next.
 */
import type { Model, ScriptedModel } from '@skilltree/core';

/** What the conversation needs of a rendered agent: `say`, resolving with the reply's text. */
export interface Sayer {
  say(message: string): Promise<{ text: string }>;
}

/** Says each of `messages` in order; resolves with the replies' texts. */
export async function sayAll(agent: Sayer, messages: readonly string[]): Promise<string[]> {
  const replies: string[] = [];
  for (const message of messages) replies.push((await agent.say(message)).text);
  return replies;
}

/** A demo as an example's module exports it for the CLI: the user's messages and a fresh model per call. */
export interface Demo {
  messages: readonly string[];
  model(): Model;
}

/**
 * Plays `demo` the way the CLI does: a fresh demo model, the agent `render` makes with it, each
 * message in turn. Resolves with the agent, the model (a scripted one: a test checks that it
 * answered every step) and the replies' texts.
 */
export async function playDemo<A extends Sayer>(
  demo: Demo,
  render: (model: Model) => A,
): Promise<{ agent: A; model: ScriptedModel; replies: string[] }> {
  const model = demo.model() as ScriptedModel;
  const agent = render(model);
  return { agent, model, replies: await sayAll(agent, demo.messages) };
}
