/**
 * `skilltree dev <module>`: what help says about it, and how to run it (loaded when it runs).
 */
import type { CommandSpec } from '../../kit/command.js';

/** The `dev` command. */
export const dev: CommandSpec = {
  name: 'dev',
  synopsis: 'skilltree dev <module>',
  summary: 'open the playground: the request, skills, transcript, stores, live',
  usage: 'skilltree dev <module> [options]',
  description: `Start the playground for the agent: the request as the model receives it, loaded skills,
the transcript window and stores, what each model step cost, live. Attach files to a message;
approve or deny the calls that wait for a person, or give a client tool's result.`,
  run: async (args, io) => (await import('./dev.js')).devCommand(args, io),
};
