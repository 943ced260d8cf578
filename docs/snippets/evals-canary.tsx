import { canaryCode, canarySuite, oracleModel, runEval } from '@skilltree/evals';

// The shipped suite on the built-in catalog (or pass { agent: <YourAgent />, tasks }), with your
// model; oracleModel() stands in for it here.
const suite = canarySuite({ model: oracleModel() });
console.log(`${suite.cases.length} tasks; the billing skill's canary is ${canaryCode('billing')}`);
const report = await runEval(suite);
const [variant] = report.variants;
console.log(
  `recall ${variant.metrics['selection.recall']?.mean}, canaries quoted ${variant.metrics['canary.used']?.mean}`,
);
