/**
 * Slash commands inside `skilltree chat`.
 */
import type { Session } from '@skilltree/core';
import type { Output } from '../../kit/io.js';
import { formatRequest, formatSkills, formatTranscript, type Style } from '../../kit/print.js';

/** What the chat loop does after a slash command. */
export type SlashOutcome = 'continue' | 'exit' | 'reset';

/** The slash commands, for `/help`. */
export const SLASH_HELP = `/request [json]     the next request as the model receives it
/skills             the skill catalog and what is loaded
/transcript [json]  every message so far
/stores             the state of the agent stores
/attach PATH        attach a file to your next message (repeatable); /attach lists them
/reset              start a new session
/help               this list
/exit               quit`;

/** Runs one slash command line (`/request`, `/skills`, …), writing to `out`. */
export function runSlash(line: string, session: Session, out: Output, style: Style): SlashOutcome {
  const [name, ...rest] = line.trim().slice(1).split(/\s+/);
  const json = rest[0] === 'json';
  switch (name.toLowerCase()) {
    case 'request':
      out.write(
        `${json ? JSON.stringify(session.request(), null, 2) : formatRequest(session.request(), style, session.transcript.length)}\n`,
      );
      return 'continue';
    case 'skills':
      out.write(`${formatSkills(session.skills, style)}\n`);
      return 'continue';
    case 'transcript':
      out.write(
        `${json ? JSON.stringify(session.transcript, null, 2) : formatTranscript(session.transcript, style)}\n`,
      );
      return 'continue';
    case 'stores':
      out.write(`${JSON.stringify(session.storeStates(), null, 2)}\n`);
      return 'continue';
    case 'reset':
      return 'reset';
    case 'exit':
    case 'quit':
    case 'q':
      return 'exit';
    case 'help':
    case '?':
      out.write(`${SLASH_HELP}\n`);
      return 'continue';
    default:
      out.write(`${style.yellow(`Unknown command /${name}.`)} Commands:\n${SLASH_HELP}\n`);
      return 'continue';
  }
}
