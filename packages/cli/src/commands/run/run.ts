/**
 * `skilltree run <module> -m "<message>"`: one-shot turns, the final reply on stdout.
 */
import type { FileInput, ModelRequest, RequestAttribution, Turn, Usage } from '@skilltree/core';
import { addUsage } from '@skilltree/core/provider';
import { choosePrice, createCostPrinter, jsonEstimate } from '../../kit/cost.js';
import { CliError, errorMessage, USAGE_ERROR } from '../../kit/errors.js';
import type { CliArgs } from '../../kit/flags.js';
import type { Io } from '../../kit/io.js';
import { type Prepared, withPrepared } from '../../kit/prepare.js';
import { createStyle } from '../../kit/print.js';
import { openSession, resumedLine, saveSession, unreadableLines } from '../../kit/stored-session.js';
import { createTurnPrinter } from '../../kit/turn-printer.js';

async function readAll(stream: Io['stdin']): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return text;
}

/**
 * Runs `run`: sends each message in turn and prints the last reply, with each turn's cost line on
 * stderr (or, with `--json`, `{ reply, replies, transcript, request, requests, loadedSkills,
 * subagentRuns, steps, usage, estimate }` and nothing on stderr; `requests` holds each model call's
 * `attribution`). Resolves to the exit code.
 */
export function runCommand(args: CliArgs, io: Io): Promise<number> {
  return withPrepared(args, io, (prepared) => runTurns(args, io, prepared));
}

async function runTurns(args: CliArgs, io: Io, { agent, model, setup }: Prepared): Promise<number> {
  let messages = args.messages;
  if (messages.length === 0) {
    if (model.kind === 'demo' && agent.demo && agent.demo.messages.length > 0) {
      messages = agent.demo.messages;
    } else if (io.stdin.isTTY !== true) {
      const text = (await readAll(io.stdin)).trim();
      if (text) messages = [text];
    }
  }
  if (messages.length === 0) {
    throw new CliError(
      'run needs a message: skilltree run <module> -m "<message>" (or pipe it on stdin).',
      USAGE_ERROR,
    );
  }
  const opened = await openSession(setup);
  const { session, resumed } = opened;
  const style = createStyle(io.stderr, io.env);
  // As chat does; with --json the output's transcript shows what was resumed.
  if (resumed && !args.json) io.stderr.write(`${style.dim(resumedLine(session, args.session ?? ''))}\n`);
  // Always said (stderr, also under --json): the chat resumed without these records.
  for (const line of unreadableLines(opened)) io.stderr.write(`${style.yellow(line)}\n`);
  const turns: Turn[] = [];
  // What each part of the tree cost in each request the model received, in order.
  const sent: { turn: number; step: number; attribution: RequestAttribution | null }[] = [];
  const price = choosePrice(args.price, model.label);
  const cost = args.json ? null : createCostPrinter(io.stderr, style, model.label, price);
  try {
    // --file: sent with the first message, read from disk as bytes (the session checks them).
    const files = await readFiles(args.file ?? []);
    for (const [index, message] of messages.entries()) {
      // Progress (--verbose) and reasoning (--reasoning) go to stderr: stdout stays the reply.
      const printer =
        args.verbose || args.reasoning
          ? createTurnPrinter(io.stderr, {
              style,
              reply: false,
              spinner: false,
              tools: args.verbose,
              reasoning: args.reasoning,
            })
          : null;
      // Usage summed from each model call's step-finish: a turn that fails after some calls still
      // shows what they used (for a finished turn it equals turn.usage).
      let usage: Usage | undefined;
      const off = session.on('event', (event) => {
        printer?.event(event);
        if (event.type === 'step-finish' && event.usage) usage = addUsage(usage, event.usage);
        if (event.type === 'request' && args.json) {
          sent.push({ turn: index + 1, step: event.step, attribution: event.request.attribution ?? null });
        }
      });
      try {
        turns.push(await session.send(message, index === 0 && files.length > 0 ? { files } : {}));
        printer?.end();
        cost?.turn(usage);
      } catch (error) {
        printer?.end();
        cost?.turn(usage);
        throw new CliError(`The turn failed (model ${model.label}): ${errorMessage(error)}`);
      } finally {
        off();
        printer?.end();
        await saveSession(session, setup);
      }
    }
    const last = turns[turns.length - 1];
    if (args.json) {
      const out = {
        reply: last.text,
        replies: turns.map((t) => t.text),
        transcript: session.transcript,
        request: withAttribution(session.request()),
        requests: sent,
        loadedSkills: session.loadedSkills,
        // Every subagent run of the session: its transcript, status, usage and result.
        subagentRuns: session.subagentRuns,
        steps: last.steps,
        ...(last.usage ? { usage: last.usage } : {}),
        estimate: jsonEstimate(last.usage, price),
      };
      io.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    } else {
      io.stdout.write(`${last.text}\n`);
    }
    return 0;
  } finally {
    session.dispose();
  }
}

/** The request as JSON carries it, with its `attribution` (a getter, which JSON leaves out) as a field. */
function withAttribution(request: ModelRequest): ModelRequest & { attribution?: RequestAttribution } {
  return { ...request, attribution: request.attribution };
}

/** The files `--file` names, as bytes with their names; a path that cannot be read is a usage error. */
async function readFiles(paths: readonly string[]): Promise<FileInput[]> {
  const { readFile } = await import('node:fs/promises');
  const { basename } = await import('node:path');
  const out: FileInput[] = [];
  for (const path of paths) {
    try {
      out.push({ data: new Uint8Array(await readFile(path)), filename: basename(path) });
    } catch (error) {
      throw new CliError(`--file ${path}: ${errorMessage(error)}`, USAGE_ERROR);
    }
  }
  return out;
}
