/** The subcommands `skilltree` knows, in the order help lists them. */

/** The commands that run an agent module (`eval`: an eval file). */
export type CommandName = 'chat' | 'run' | 'dev' | 'serve' | 'eval';

/** The subcommands `skilltree` knows: the module commands and `help`. */
export type Command = CommandName | 'help';

/** The module commands, in the order help lists them. */
export const COMMAND_NAMES: readonly CommandName[] = ['chat', 'run', 'dev', 'serve', 'eval'];

/** The subcommands, for "did you mean" checks. */
export const COMMANDS: readonly Command[] = [...COMMAND_NAMES, 'help'];
