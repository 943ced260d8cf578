/**
 * Prints a turn as it happens: the reply streamed as it arrives, and skill loads/unloads, tool calls
 * and tool results as dim compact lines.
 */
import { contextChangesOf, ownTextOf, type SessionEvent } from '@skilltree/core';
import type { Output } from './io.js';
import { compact, compactJson, type Style } from './print.js';
import { createSpinner, type Spinner } from './spinner.js';

/** Options of {@link createTurnPrinter}. */
export interface TurnPrinterOptions {
  style: Style;
  /** Draw a spinner while the model thinks (only takes effect on a terminal). */
  spinner?: boolean;
  /** Also print `contextChanged` lines, store changes and full tool results. */
  verbose?: boolean;
  /** Prefix of the streamed reply. Default `agent › `. */
  replyPrefix?: string;
  /** Print the reply text (false for `run`, which prints only the final reply itself). */
  reply?: boolean;
  /** Print the model's reasoning, dimmed, as it streams. */
  reasoning?: boolean;
}

/** Receives session events; call `end()` when the turn is over (or failed). */
export interface TurnPrinter {
  event(event: SessionEvent): void;
  end(): void;
}

/** Creates a printer that writes one turn's events to `output`. */
export function createTurnPrinter(output: Output, options: TurnPrinterOptions): TurnPrinter {
  const { style, verbose = false, reply = true, reasoning = false } = options;
  let inReasoning = false;
  const prefix = options.replyPrefix ?? `${style.bold(style.magenta('agent'))} ${style.dim('›')} `;
  const spinner: Spinner = createSpinner(output, options.spinner !== false && output.isTTY === true);
  let inText = false;
  let wroteReply = false;
  const line = (text: string) => {
    spinner.stop();
    if (inText) {
      output.write('\n');
      inText = false;
    }
    output.write(`${text}\n`);
  };
  const note = (text: string) => line(style.dim(`  ${text}`));
  return {
    event(event) {
      switch (event.type) {
        case 'request':
          spinner.start(event.step > 1 ? `thinking… (step ${event.step})` : 'thinking…');
          break;
        case 'reasoning-delta':
          if (!reasoning || event.text === '') break;
          spinner.stop();
          if (!inReasoning) {
            if (inText) output.write('\n');
            output.write(style.dim('thinking › '));
            inReasoning = true;
            inText = true;
          }
          output.write(style.dim(event.text));
          break;
        case 'reasoning':
          if (inReasoning) {
            output.write('\n');
            inReasoning = false;
            inText = false;
          }
          break;
        case 'waiting':
          for (const call of event.calls) {
            if (call.status !== 'waiting') continue;
            note(
              `⏸ ${call.name} ${compactJson(call.input)} waits for ${call.for === 'approval' ? 'approval' : 'the client'}`,
            );
          }
          break;
        case 'text-delta':
          spinner.stop();
          if (inReasoning) {
            output.write('\n');
            inReasoning = false;
            inText = false;
          }
          if (!reply) break;
          if (!inText) {
            output.write(prefix);
            inText = true;
          }
          wroteReply = true;
          output.write(event.text);
          break;
        case 'message':
          if (event.message.role === 'assistant' && inText) {
            output.write('\n');
            inText = false;
          }
          break;
        case 'tool-call':
          note(`⚙ ${event.toolCall.name} ${compactJson(event.toolCall.input)}`);
          break;
        case 'tool-result': {
          const text = ownTextOf(event.message);
          const changes = contextChangesOf(event.message);
          const body = verbose ? text.trim() : compact(text, 100);
          const mark = event.message.isError ? style.red('✗') : '↳';
          line(`${style.dim('    ')}${mark}${style.dim(` ${body || '(empty)'}`)}`);
          if (verbose) for (const change of changes) note(`    ${change}`);
          break;
        }
        case 'skill-loaded':
          note(`+ skill ${event.name} loaded`);
          break;
        case 'skill-unloaded':
          note(`− skill ${event.name} unloaded`);
          break;
        case 'context-changed':
          break;
        case 'store-changed':
          if (verbose) note(`store ${event.name}: ${compactJson(event.state, 100)}`);
          break;
        case 'finish':
          spinner.stop();
          if (reply && !wroteReply && !event.turn.text) note('(the reply has no text)');
          break;
      }
    },
    end() {
      spinner.stop();
      if (inText) {
        output.write('\n');
        inText = false;
      }
    },
  };
}
