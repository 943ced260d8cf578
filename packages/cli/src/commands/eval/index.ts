/**
 * `skilltree eval <file>`: what help says about it, and how to run it (loaded when it runs).
 */
import type { CommandSpec } from '../../kit/command.js';

/** The `eval` command. */
export const evalCommand: CommandSpec = {
  name: 'eval',
  synopsis: 'skilltree eval <file.eval.tsx>',
  summary: 'run an eval suite, print the table',
  usage: 'skilltree eval <file.eval.tsx> [options]',
  description: `Run the eval suites a module exports (its default export, a list of them, or named exports made
with defineEval from @skilltree/evals): every case on every variant, as many trials as asked,
progress on stderr, then the table on stdout: selection, success, tool calls, steps, tokens, cost
and latency per variant, with the change against the first variant. --model replaces the suite's
model (variants that name their own keep it); --record and --replay keep each trial's conversation
under a folder, so CI replays it with no model and no key.`,
  after:
    'Exit code: 0 when every threshold holds, 1 when one fails (or a replay differs from its recording, or\nthe module fails), 2 on a usage error.',
  run: async (args, io) => (await import('./eval.js')).evalCommandRun(args, io),
};
