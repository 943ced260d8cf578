import { defineEval, formatTable, oracleModel, runEval } from '@skilltree/evals';
import { NotesAgent } from './hello-agent.js';

export const notesEval = defineEval({
  name: 'notes',
  agent: <NotesAgent />,
  // Your model goes here, e.g. anthropic({ model: 'claude-haiku-4-5' }). oracleModel() is a scripted
  // model that does what each case expects: it tests the eval itself, offline.
  model: oracleModel(),
  cases: [
    {
      name: 'take a note',
      messages: 'Note this down: buy milk',
      expect: {
        reads: ['notes'], // selection: the skills it must read
        toolCalls: [{ name: 'add_note', input: { text: 'buy milk' } }],
      },
    },
    {
      name: 'arithmetic',
      messages: 'What is 12 times 12?',
      expect: { reads: [], notRead: 'others', text: '144' }, // needs no skill
    },
  ],
  trials: 3,
  thresholds: ['selection.recall >= 0.9', 'success >= 0.9'],
});

const report = await runEval(notesEval);
console.log(formatTable(report, { metrics: ['success', 'selection.precision', 'selection.recall', 'tools', 'steps'] }));
