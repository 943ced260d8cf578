/**
 * What a command is to `main` and to help: its name, its help texts and how to run it. Each
 * `commands/<name>/index.ts` exports one; the command's code loads only when it runs.
 */
import type { CommandName } from './command-names.js';
import type { CliArgs } from './flags.js';
import type { Io } from './io.js';

/** One `skilltree` command. */
export interface CommandSpec {
  name: CommandName;
  /** Its line in the general help, e.g. `skilltree run <module> -m "<message>"`. */
  synopsis: string;
  /** What it does, in a few words, for the general help. */
  summary: string;
  /** The first line of its own help, e.g. `skilltree run <module> -m "<message>" [options]`. */
  usage: string;
  /** What it does, in a paragraph or two. */
  description: string;
  /** Sections its help prints after the options (chat's slash commands, run's exit codes). */
  after?: string;
  /** Runs it; resolves to the exit code. */
  run(args: CliArgs, io: Io): Promise<number>;
}
