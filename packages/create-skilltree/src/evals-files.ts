/**
 * The files `--with evals` writes: an eval suite for the todo agent and the test that runs it, in
 * the shape of `@skilltree/evals` (`defineEval`, `describeEval`). Plain text, like the other addons'.
 */

/** `agent.eval.tsx`, written by the evals addon: what `npm run eval` runs. */
export const EVALS = `import { defineEval, oracleModel } from '@skilltree/evals';
import { TodoAgent } from './agent.js';

/**
 * Does the model read the todos skill when the user asks for a todo (and only then), and call
 * add_todo with what the user said? \`npm run eval\` runs this suite; the test next to it runs it
 * in \`npm test\`.
 */
export default defineEval({
  name: 'todos',
  agent: <TodoAgent />,
  // oracleModel() is a scripted model that does what each case expects: it checks the eval itself,
  // offline. Run a real model with \`npm run eval -- --model anthropic:claude-haiku-4-5\` (with
  // @skilltree/models installed and ANTHROPIC_API_KEY set), or name it here.
  model: oracleModel(),
  cases: [
    {
      name: 'a todo to remember',
      messages: 'Remind me to water the plants',
      expect: {
        reads: ['todos'], // selection: the skills it must read
        toolCalls: [{ name: 'add_todo', input: { text: 'water the plants' } }],
      },
    },
    {
      name: 'small talk needs no skill',
      messages: 'Hi! What can you do?',
      expect: { reads: [], notRead: 'others', toolCalls: [] },
    },
  ],
  trials: 1,
  thresholds: ['selection.recall >= 0.9', 'success >= 0.9'],
});
`;

/** `agent.eval.test.tsx`, written by the evals addon: the suite as vitest tests. */
export const EVALS_TEST = `import { describeEval } from '@skilltree/evals/vitest';
import suite from './agent.eval.js';

// A test per threshold, one per case, and one for the run: a threshold that fails, or a case that
// cannot run, fails npm test.
describeEval(suite, { print: false });
`;
