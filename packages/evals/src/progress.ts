/**
 * Progress on a terminal (stderr): on a TTY one line that is rewritten as trials finish, elsewhere
 * one line per trial.
 */
import { formatValue } from './format.js';
import type { EvalProgress } from './run-eval.js';

/** Where progress goes: `process.stderr`, or anything with `write`. */
export interface ProgressOutput {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

/**
 * A progress listener for `runEval`'s `onProgress` that writes to `out`.
 *
 * @example
 * await runEval(suite, { onProgress: progressPrinter(process.stderr) });
 */
export function progressPrinter(out: ProgressOutput): (event: EvalProgress) => void {
  const tty = out.isTTY === true;
  return (event) => {
    if (event.type === 'start') {
      out.write(`${event.suite}: ${event.total} trials (${event.cases} cases × ${event.variants.join(', ')})\n`);
      return;
    }
    if (event.type === 'end') {
      if (tty) out.write('\r\x1b[K');
      return;
    }
    const { result, scores } = event;
    const ok = scores.scores.success === 1;
    const mark = result.error ? '!' : ok ? '✓' : '✗';
    const why = result.error ? result.error.message : ok ? '' : (scores.notes[0] ?? '');
    const line =
      `[${event.done}/${event.total}] ${mark} ${result.case} · ${result.variant} #${result.trial}` +
      ` · ${result.steps} steps · ${formatValue(result.latencyMs, { unit: 'ms' })}` +
      (why ? ` · ${why.split('\n')[0].slice(0, 120)}` : '');
    out.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
  };
}
