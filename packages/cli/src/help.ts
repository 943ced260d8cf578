/**
 * The `--help` texts.
 */
import type { Command } from './args.js';
import { DEFAULT_ANTHROPIC_MODEL, DEFAULT_OPENAI_MODEL } from './pick-model.js';

const MODEL_FLAGS = `  --model <spec>                   anthropic:<model-id>, openai:<model-id>, scripted:<file.json> or demo
  --max-loaded-skills <n>          skills loaded at once (overrides <Agent maxLoadedSkills>)
  --max-transcript-messages <n>    transcript window sent to the model (overrides <Agent maxTranscriptMessages>)
  --max-steps <n>                  model calls per turn before the turn fails (default 20)`;

const PRICE_FLAG = `  --price <model|in,out[,cacheRead[,cacheWrite]]>
                                   price for the cost estimate: a model of the price table or US dollars
                                   per million tokens (default: the table's price for the model's name)`;

const ENV = `Environment:
  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL   Anthropic key and endpoint (default model: ${DEFAULT_ANTHROPIC_MODEL})
  OPENAI_API_KEY, OPENAI_BASE_URL         OpenAI (or compatible server) key and endpoint (default model: ${DEFAULT_OPENAI_MODEL})
  SKILLTREE_MODEL                         the default for --model
  NO_COLOR, FORCE_COLOR                   turn colors off / on`;

const TEXTS: Record<Command, string> = {
  help: `skilltree — run agents written with skilltree (skills as React components) in the terminal.

Usage:
  skilltree chat <module>                 chat with the agent (plays its demo when no model key is set)
  skilltree run <module> -m "<message>"   one turn, print the reply
  skilltree dev <module>                  open the playground: the request, skills, transcript, stores, live
  skilltree serve <module>                serve it to web apps (AI SDK useChat) with a chat page (skilltree help serve)
  skilltree help [command]

The module's default export is the agent (an element or a component); it may export
"demo = { messages: string[], model: () => Model }", a scripted conversation played offline.

Options:
${MODEL_FLAGS}
  --session <name>                 save the session after each turn; resume it when it exists
  --store sqlite:<file>            where --session keeps sessions (default sqlite:.skilltree/sessions.db)
${PRICE_FLAG}
  -h, --help                       show help
  -v, --version                    show the version

Model choice: --model, else SKILLTREE_MODEL, else anthropic:${DEFAULT_ANTHROPIC_MODEL} when ANTHROPIC_API_KEY is set,
else openai:${DEFAULT_OPENAI_MODEL} when OPENAI_API_KEY is set, else the module's demo.

${ENV}

Docs: docs/cli.md`,
  chat: `Usage: skilltree chat <module> [options]

Chat with the agent. Replies stream as they arrive; skill loads/unloads, tool calls and tool results
show as dim lines. After each turn a cost line on stderr: input tokens (with the shares read from and
written to the prompt cache), output tokens and an estimate in US dollars. Without a terminal, messages are read from stdin, one per line.
When the model is the module's demo, the demo's messages are played and chat exits.

Commands inside chat:
  /request [json]    the next request as the model receives it: system, context, tools, messages
  /skills            the skill catalog: active, loaded, not loaded
  /transcript [json] every message so far
  /stores            the state of the agent stores
  /reset             start a new session (new transcript, skills and stores)
  /help              this list
  /exit              quit (also /quit, Ctrl+D)

Options:
${MODEL_FLAGS}
  --session <name>                 save after each turn; resume when the session exists
  --store sqlite:<file>            where sessions are kept (default sqlite:.skilltree/sessions.db)
  --verbose                        also print contextChanged lines, store changes and whole tool results
${PRICE_FLAG}

${ENV}`,
  run: `Usage: skilltree run <module> -m "<message>" [options]

Send one message (or several: -m a -m b, one turn each), print the final reply on stdout and each
turn's cost line (tokens, cached share, estimate) on stderr. Without -m the message is read from
stdin; with the demo model and no -m, the demo's messages are sent.

Options:
  -m, --message <text>             the user message (repeatable)
  --json                           print { reply, transcript, request, loadedSkills, steps, usage, estimate }
                                   as JSON (no cost line)
${MODEL_FLAGS}
  --session <name>                 save after each turn; resume when the session exists
  --store sqlite:<file>            where sessions are kept (default sqlite:.skilltree/sessions.db)
  --verbose                        print skill loads, tool calls and results on stderr
${PRICE_FLAG}

Exit code: 0 on success, 1 when the module or the model fails, 2 on a usage error.

${ENV}`,
  dev: `Usage: skilltree dev <module> [options]

Start the playground for the agent: the request as the model receives it, loaded skills,
the transcript window and stores, what each model step cost, live.

Options:
  -p, --port <n>                   port (default: the playground's default)
  --host <host>                    host to listen on (default 127.0.0.1)
${MODEL_FLAGS}
${PRICE_FLAG}

${ENV}`,
};

/** The help text of `command` (the general help for `help`). */
export function helpText(command: Command = 'help'): string {
  return `${TEXTS[command]}\n`;
}
