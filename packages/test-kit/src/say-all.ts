/**
 * Plays a conversation the way the CLI plays an example's demo: each user message in turn, each
 * waiting for the reply before the next.
 */

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
