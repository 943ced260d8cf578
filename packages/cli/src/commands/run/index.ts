/**
 * `skilltree run <module> -m "<message>"`: what help says about it, and how to run it (loaded
 * when it runs).
 */
import type { CommandSpec } from '../../kit/command.js';

/** The `run` command. */
export const run: CommandSpec = {
  name: 'run',
  synopsis: 'skilltree run <module> -m "<message>"',
  summary: 'one turn, print the reply',
  usage: 'skilltree run <module> -m "<message>" [options]',
  description: `Send one message (or several: -m a -m b, one turn each), print the final reply on stdout and each
turn's cost line (tokens, cached share, estimate) on stderr. Without -m the message is read from
stdin; with the demo model and no -m, the demo's messages are sent.`,
  after: 'Exit code: 0 on success, 1 when the module or the model fails, 2 on a usage error.',
  run: async (args, io) => (await import('./run.js')).runCommand(args, io),
};
