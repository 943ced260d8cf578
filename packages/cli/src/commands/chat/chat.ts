/**
 * `skilltree chat <module>`: an interactive chat, a piped one (one message per stdin line), or the
 * module's demo played back.
 */
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import type { Session, ToolAnswer, Usage } from '@skilltree/core';
import { addUsage, type FilePart } from '@skilltree/core/provider';
import { type CostPrinter, choosePrice, createCostPrinter } from '../../kit/cost.js';
import { errorMessage } from '../../kit/errors.js';
import type { CliArgs } from '../../kit/flags.js';
import type { Io } from '../../kit/io.js';
import { keyVariables } from '../../kit/pick-model.js';
import { type Prepared, sessionOptions, withPrepared } from '../../kit/prepare.js';
import { count, createStyle, type Style } from '../../kit/print.js';
import { openSession, resumedLine, saveSession, unreadableLines } from '../../kit/stored-session.js';
import { createTurnPrinter } from '../../kit/turn-printer.js';
import { attachedLine, attachPath, readAttachment } from './attach.js';
import { runSlash } from './slash.js';

interface ChatState {
  session: Session;
  failed: number;
  current: AbortController | null;
  /** Prints each turn's cost line on stderr. */
  cost: CostPrinter;
  /** Files queued with `/attach`, sent with the next message. */
  attachments: FilePart[];
}

/** Asks about the first call that waits for approval (a tool with needsApproval). */
function askApproval(state: ChatState, io: Io, style: Style): void {
  const call = state.session.waiting.find((w) => w.for === 'approval');
  if (!call) return;
  io.stdout.write(
    `${style.yellow('?')} Run ${style.bold(call.name)} ${JSON.stringify(call.input)}${inRun(call.path)}? ${style.dim('y to approve, n to deny; anything else is sent as a new message')}\n`,
  );
}

/** Where a call inside a subagent run waits (` in researcher`, ` in researcher › checker`), or ''. */
const inRun = (path: readonly string[] | undefined) =>
  path && path.length > 1 ? ` in ${path.slice(0, -1).join(' › ')}` : '';

/** The answer a line gives to the first call that waits for approval, or null for a new message. */
function approvalAnswer(state: ChatState, line: string): ToolAnswer[] | null {
  const call = state.session.waiting.find((w) => w.for === 'approval');
  if (!call) return null;
  if (/^y(es)?$/i.test(line)) return [{ toolCallId: call.toolCallId, type: 'approve' }];
  if (/^no?$/i.test(line)) return [{ toolCallId: call.toolCallId, type: 'deny', reason: 'the user said no.' }];
  return null;
}

function userLine(text: string, style: Style): string {
  return `${style.bold(style.green('you'))} ${style.dim('›')} ${text}\n`;
}

/** Runs one turn through `session.stream`, printing it. Returns false when the turn failed. */
async function turn(
  state: ChatState,
  input: string | ToolAnswer[],
  args: CliArgs,
  io: Io,
  style: Style,
): Promise<boolean> {
  const printer = createTurnPrinter(io.stdout, { style, verbose: args.verbose, reasoning: args.reasoning });
  const controller = new AbortController();
  state.current = controller;
  // Summed from each model call's step-finish, so that a turn that fails or is interrupted after
  // some calls still shows what they used (for a finished turn it equals turn.usage).
  let usage: Usage | undefined;
  // Queued files go with the next message (not with a y/n answer), whatever becomes of it.
  const files = typeof input === 'string' ? state.attachments.splice(0) : [];
  try {
    const events =
      typeof input === 'string'
        ? state.session.stream(input, { signal: controller.signal, ...(files.length > 0 ? { files } : {}) })
        : state.session.answerStream(input, { signal: controller.signal });
    for await (const event of events) {
      printer.event(event);
      if (event.type === 'step-finish' && event.usage) usage = addUsage(usage, event.usage);
    }
    printer.end();
    state.cost.turn(usage);
    askApproval(state, io, style);
    return true;
  } catch (error) {
    printer.end();
    const aborted = controller.signal.aborted;
    io.stderr.write(`${style.red(aborted ? '(interrupted)' : `error: ${errorMessage(error)}`)}\n`);
    if ((error as Error)?.name === 'FileRejectedError') {
      io.stderr.write(
        `${style.dim('Nothing was sent, and the attached files are dropped: /attach again and resend.')}\n`,
      );
    }
    state.cost.turn(usage);
    if (!aborted) state.failed++;
    return false;
  } finally {
    printer.end();
    state.current = null;
  }
}

async function save(state: ChatState, prepared: Prepared, io: Io, style: Style): Promise<void> {
  try {
    await saveSession(state.session, prepared.setup);
  } catch (error) {
    io.stderr.write(`${style.red(errorMessage(error))}\n`);
    state.failed++;
  }
}

/**
 * `/attach PATH`: reads the file and queues it for the next message; `/attach` alone lists what is
 * queued. A path that cannot be read, or a file core would refuse, is said on stderr and not queued
 * (in a pipe it counts as a failure, like a failed turn).
 */
async function attach(
  state: ChatState,
  line: string,
  limits: Parameters<typeof readAttachment>[2],
  io: Io,
  style: Style,
): Promise<void> {
  const path = attachPath(line);
  if (path === '') {
    const queued = state.attachments.map((file) => `  ${attachedLine(file)}\n`).join('');
    io.stdout.write(queued || `${style.dim('No files attached. /attach PATH attaches one to the next message.')}\n`);
    return;
  }
  try {
    const file = await readAttachment(path, io.cwd, limits);
    state.attachments.push(file);
    io.stdout.write(`${style.dim(`${attachedLine(file)}; it goes with your next message`)}\n`);
  } catch (error) {
    io.stderr.write(`${style.red(errorMessage(error))}\n`);
    state.failed++;
  }
}

/**
 * Runs `chat`; after each turn its cost line (tokens, cached share, estimate) goes to stderr. Resolves to the exit code: 0, or 1 when a turn failed while reading messages from
 * a pipe (interactive chats keep going after errors and exit 0).
 */
export function chatCommand(args: CliArgs, io: Io): Promise<number> {
  return withPrepared(args, io, (prepared) => chat(args, io, prepared));
}

async function chat(args: CliArgs, io: Io, prepared: Prepared): Promise<number> {
  const { agent, model, setup } = prepared;
  const style = createStyle(io.stdout, io.env);
  const errStyle = createStyle(io.stderr, io.env);
  const opened = await openSession(setup);
  const { session, resumed } = opened;
  const cost = createCostPrinter(io.stderr, errStyle, model.label, choosePrice(args.price, model.label));
  const state: ChatState = { session, failed: 0, current: null, cost, attachments: [] };
  const interactive = io.stdin.isTTY === true;
  const name = args.module ?? basename(agent.path);
  if (resumed) io.stderr.write(`${errStyle.dim(resumedLine(session, args.session ?? ''))}\n`);
  for (const line of unreadableLines(opened)) io.stderr.write(`${errStyle.yellow(line)}\n`);

  try {
    // The demo: play the module's scripted conversation, then exit.
    if (model.kind === 'demo' && agent.demo) {
      const scripted = count(agent.demo.messages.length, 'scripted message');
      io.stdout.write(`${style.dim(`skilltree chat ${name} · demo: ${scripted}`)}\n`);
      // The demo's model answers only its own script: lines piped in would be dropped unsaid.
      if (!interactive) {
        io.stderr.write(
          `${errStyle.dim(`The demo plays its ${scripted}; lines on stdin are not sent. Set ${keyVariables()}, or pass --model, to send them.`)}\n`,
        );
      }
      for (const message of agent.demo.messages) {
        io.stdout.write(userLine(message, style));
        const ok = await turn(state, message, args, io, style);
        await save(state, prepared, io, errStyle);
        if (!ok) return 1;
        io.stdout.write('\n');
      }
      io.stdout.write(`${style.dim(`Demo finished. Set ${keyVariables()} (or pass --model) to chat for real.`)}\n`);
      return 0;
    }

    if (interactive) {
      io.stdout.write(
        `${style.dim(`skilltree chat ${name} · model ${model.label} · /help for commands, /exit to quit`)}\n`,
      );
    }
    const rl = createInterface({
      input: io.stdin,
      output: interactive ? (io.stdout as NodeJS.WritableStream) : undefined,
      terminal: interactive,
      prompt: `${style.bold(style.green('you'))} ${style.dim('›')} `,
    });
    rl.on('SIGINT', () => {
      if (state.current) state.current.abort(new Error('Interrupted.'));
      else rl.close();
    });
    if (interactive) rl.prompt();
    for await (const raw of rl) {
      const line = raw.trim();
      if (line !== '') {
        if (!interactive) io.stdout.write(userLine(line, style));
        if (/^\/attach(\s|$)/i.test(line)) {
          await attach(state, line, setup.options.files, io, style);
        } else if (line.startsWith('/')) {
          const outcome = runSlash(line, state.session, io.stdout, style);
          if (outcome === 'exit') break;
          if (outcome === 'reset') {
            state.session.dispose();
            state.session = (
              await openSession({ ...setup, options: sessionOptions(args, model, agent) }, true)
            ).session;
            await save(state, prepared, io, errStyle);
            io.stdout.write(`${style.dim('New session: empty transcript, no skills loaded, fresh stores.')}\n`);
          }
        } else {
          // A call waiting for approval takes y or n; anything else is a new message (it supersedes the call).
          const answer = approvalAnswer(state, line);
          await turn(state, answer ?? line, args, io, style);
          await save(state, prepared, io, errStyle);
          if (!interactive) io.stdout.write('\n');
        }
      }
      if (interactive) rl.prompt();
    }
    rl.close();
    return !interactive && state.failed > 0 ? 1 : 0;
  } finally {
    state.session.dispose();
  }
}
