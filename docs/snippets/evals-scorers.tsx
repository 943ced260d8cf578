import { scriptedModel } from '@skilltree/core';
import { judgeScorer, oracleModel, runEval, type Scorer } from '@skilltree/evals';
import { NotesAgent } from './hello-agent.js';

// A custom scorer: a name, and a function of the trial (and its case) that returns a number, a
// boolean, null (does not apply), or { value, metrics, notes }.
const brief: Scorer = {
  name: 'brief',
  metrics: { '': { description: 'the reply is under 200 characters' } },
  score: (trial) => trial.text.length < 200,
};

// An LLM judge for free-text expectations (expect.judge). Any Model judges; a scripted one here.
const judge = judgeScorer({ model: scriptedModel([{ text: '{"score": 0.9, "reason": "confirms the note"}' }]) });

const report = await runEval({
  name: 'notes, judged',
  agent: <NotesAgent />,
  model: oracleModel(),
  cases: [
    {
      name: 'take a note',
      messages: 'Note this down: buy milk',
      expect: { reads: ['notes'], judge: 'confirms what was noted' },
    },
  ],
  scorers: [brief, judge],
});
const [variant] = report.variants;
console.log(`brief ${variant.metrics.brief?.mean}, judge ${variant.metrics.judge?.mean}`);
console.log(report.cases[0].variants.default.trials[0].notes);
