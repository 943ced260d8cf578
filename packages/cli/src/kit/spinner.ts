/**
 * A one-line spinner for "the model is thinking", drawn only on a terminal.
 */
import type { Output } from './io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** A spinner; `start`/`stop` are no-ops when the output is not a terminal. */
export interface Spinner {
  start(label?: string): void;
  /** Erases the spinner line. */
  stop(): void;
  readonly spinning: boolean;
}

/** Creates a spinner on `output` (drawn only when `enabled` and `output.isTTY`). */
export function createSpinner(output: Output, enabled = output.isTTY === true): Spinner {
  let timer: ReturnType<typeof setInterval> | null = null;
  let frame = 0;
  let text = '';
  const draw = () => {
    output.write(`\r\u001b[2K\u001b[2m${FRAMES[frame++ % FRAMES.length]} ${text}\u001b[22m`);
  };
  return {
    start(label = 'thinking…') {
      if (!enabled) return;
      text = label;
      if (timer) return;
      draw();
      timer = setInterval(draw, 80);
      timer.unref?.();
    },
    stop() {
      if (!timer) return;
      clearInterval(timer);
      timer = null;
      output.write('\r\u001b[2K');
    },
    get spinning() {
      return timer !== null;
    },
  };
}
