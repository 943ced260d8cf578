/**
 * Prints a turn as it happens: the reply streamed as it arrives, the model's reasoning (when asked)
 * dimmed, and skill loads/unloads, tool calls, tool results (with a line per file a tool returned)
 * and calls that wait as dim compact lines; subagent runs indented under the call that spawned them.
 */
import { contextChangesOf, type SessionEvent } from '@skilltree/core';
import { contextChangeLine } from '@skilltree/core/provider';
import type { Output } from './io.js';
import { compact, compactJson, count, describeFile, type Style } from './print.js';
import { createRunLines } from './run-lines.js';
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
  /** Print skill loads, tool calls, tool results and calls that wait. Default true. */
  tools?: boolean;
  /**
   * Print the model's reasoning, dimmed, as it streams (`--reasoning`). Only its readable text: a
   * provider that hides it (encrypted or redacted reasoning) gets a line saying so. Default false.
   */
  reasoning?: boolean;
  /** Prefix of the reasoning. Default `thinking › `, dimmed. */
  reasoningPrefix?: string;
}

/** Receives session events; call `end()` when the turn is over (or failed). */
export interface TurnPrinter {
  event(event: SessionEvent): void;
  end(): void;
}

/** Creates a printer that writes one turn's events to `output`. */
export function createTurnPrinter(output: Output, options: TurnPrinterOptions): TurnPrinter {
  const { style, verbose = false, reply = true, tools = true, reasoning = false } = options;
  const prefix = options.replyPrefix ?? `${style.bold(style.magenta('agent'))} ${style.dim('›')} `;
  const thinkingPrefix = options.reasoningPrefix ?? style.dim('thinking › ');
  const spinner: Spinner = createSpinner(output, options.spinner !== false && output.isTTY === true);
  const runs = createRunLines({ style, verbose });
  /** What the open line holds: the reply, reasoning, or nothing (the cursor is at a line's start). */
  let open: 'text' | 'reasoning' | null = null;
  /** Whether the open reasoning got its text as deltas (else its finished block carries it). */
  let streamedReasoning = false;
  let wroteReply = false;
  const endLine = () => {
    if (open !== null) output.write('\n');
    open = null;
    streamedReasoning = false;
  };
  const line = (text: string) => {
    spinner.stop();
    endLine();
    output.write(`${text}\n`);
  };
  const note = (text: string) => line(style.dim(`  ${text}`));
  const think = (text: string) => {
    spinner.stop();
    if (open !== 'reasoning') {
      endLine();
      output.write(thinkingPrefix);
      open = 'reasoning';
    }
    output.write(style.dim(text));
  };
  return {
    event(event) {
      switch (event.type) {
        case 'request':
          spinner.start(event.step > 1 ? `thinking… (step ${event.step})` : 'thinking…');
          break;
        case 'reasoning-delta':
          if (!reasoning || event.text === '') break;
          think(event.text);
          streamedReasoning = true;
          break;
        case 'reasoning': {
          if (!reasoning) break;
          // A block that did not stream its text (a model without streaming) is printed whole.
          if (!streamedReasoning) think(event.reasoning.text || '(hidden by the provider)');
          endLine();
          break;
        }
        case 'waiting':
          if (!tools) break;
          for (const call of event.calls) {
            // A call inside a run is printed under its run (see run-lines.ts).
            if (call.status !== 'waiting' || (call.path?.length ?? 0) > 1) continue;
            note(
              `⏸ ${call.name} ${compactJson(call.input)} waits for ${call.for === 'approval' ? 'approval' : 'the client'}`,
            );
          }
          break;
        case 'text-delta':
          spinner.stop();
          if (!reply) break;
          if (open !== 'text') {
            endLine();
            output.write(prefix);
            open = 'text';
          }
          wroteReply = true;
          output.write(event.text);
          break;
        case 'message':
          if (event.message.role === 'assistant') endLine();
          break;
        case 'tool-call':
          if (tools) note(`⚙ ${event.toolCall.name} ${compactJson(event.toolCall.input)}`);
          break;
        case 'tool-result': {
          if (!tools) break;
          // The result's own text, its files and its context changes are parts of their own: no parsing.
          const parts = event.message.content;
          const text = parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
          const files = parts.flatMap((part) => (part.type === 'file' ? [part] : []));
          const body = verbose ? text.trim() : compact(text, 100);
          const mark = event.message.isError ? style.red('✗') : '↳';
          line(
            `${style.dim('    ')}${mark}${style.dim(` ${body || (files.length > 0 ? count(files.length, 'file') : '(empty)')}`)}`,
          );
          // A file a tool returned (a screenshot, a PDF) on a line of its own: what it is, never its bytes.
          for (const file of files) note(`      file ${describeFile(file)}`);
          // Each change as the line the model reads (core renders it; loads also show as skill lines).
          if (verbose) for (const change of contextChangesOf(event.message)) note(`    ${contextChangeLine(change)}`);
          break;
        }
        case 'skill-loaded':
          if (tools) note(`+ skill ${event.name} loaded`);
          break;
        case 'skill-unloaded':
          if (tools) note(`− skill ${event.name} unloaded`);
          break;
        case 'context-changed':
          break;
        case 'subagent-start':
        case 'subagent-event':
        case 'subagent-finish':
          if (tools) for (const text of runs.lines(event)) line(text);
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
      endLine();
    },
  };
}
