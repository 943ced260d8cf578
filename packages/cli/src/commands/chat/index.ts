/**
 * `skilltree chat <module>`: what help says about it, and how to run it (loaded when it runs).
 */
import type { CommandSpec } from '../../kit/command.js';

/** The `chat` command. */
export const chat: CommandSpec = {
  name: 'chat',
  synopsis: 'skilltree chat <module>',
  summary: 'chat with the agent (plays its demo when no model key is set)',
  usage: 'skilltree chat <module> [options]',
  description: `Chat with the agent. Replies stream as they arrive; skill loads/unloads, tool calls and tool results
show as dim lines. After each turn a cost line on stderr: input tokens (with the shares read from and
written to the prompt cache), output tokens and an estimate in US dollars. Without a terminal, messages are read from stdin, one per line.
When the model is the module's demo, the demo's messages are played and chat exits.
When a tool that needs approval is called, chat asks: y runs it, n denies it.

Commands inside chat:
  /request [json]    the next request as the model receives it: system, context, tools, messages
  /skills            the skill catalog: active, loaded, not loaded
  /transcript [json] every message so far
  /stores            the state of the agent stores
  /attach PATH       attach a file (image, PDF, text) to your next message; repeat for more
  /reset             start a new session (new transcript, skills and stores)
  /help              this list
  /exit              quit (also /quit, Ctrl+D)`,
  run: async (args, io) => (await import('./chat.js')).chatCommand(args, io),
};
