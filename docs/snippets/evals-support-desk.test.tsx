import { describeEval } from '@skilltree/evals/vitest';
import supportDeskEval from '@skilltree/example-support-desk/evals';

// The run happens once; then a test per threshold and per case × variant. The table goes to stderr.
describeEval(supportDeskEval);
