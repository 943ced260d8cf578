import { formatTable, runEval } from '@skilltree/evals';
import supportDeskEval from '@skilltree/example-support-desk/evals';

const report = await runEval(supportDeskEval);
console.log(
  formatTable(report, {
    metrics: ['success', 'selection.precision', 'selection.recall', 'tools', 'tokens.input', 'cost'],
  }),
);
