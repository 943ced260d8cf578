/**
 * The scripted conversation the CLI plays when no API key is set, and that the end-to-end test
 * replays. Its steps that answer are functions of the request: they quote what the tools returned
 * and fail loudly when a result is not what the script expects.
 *
 * One turn: the model reads the `food-safety` folder skill, reads one of its files with the skill's
 * read tool, reads the `units` skill (which starts the MCP server), converts with the server's tool,
 * and answers from both results.
 */
import { lastToolResult, type ModelRequest, type ScriptedStep, scriptedModel, textOf } from '@skilltree/core';

export const DEMO_MESSAGES = [
  'My chicken thighs read 165 °F on the thermometer. Are they done? What is that in Celsius?',
];

/** The last tool result, which must come from `tool` and match `pattern`; returns the match. */
function expectResult(req: ModelRequest, tool: string, pattern: RegExp): RegExpMatchArray {
  const message = lastToolResult(req);
  const match = message.name === tool && !message.isError ? textOf(message).match(pattern) : null;
  if (!match) {
    throw new Error(
      `demo script: expected a result of ${tool} that matches ${pattern}, got ${message.name}${message.isError ? ' (error)' : ''}:\n${textOf(message)}`,
    );
  }
  return match;
}

/** The last tool result must be the read of `skill`, and the request must offer `tool`. */
function expectLoaded(req: ModelRequest, skill: string, tool: string): void {
  expectResult(req, 'read_skill', new RegExp(`^Loaded skill "${skill}"`));
  if (!req.tools.some((t) => t.name === tool)) {
    const offered = req.tools.map((t) => t.name).join(', ');
    throw new Error(`demo script: expected ${tool} to be offered once ${skill} is loaded; offered: ${offered}.`);
  }
}

export const DEMO_STEPS: ScriptedStep[] = [
  {
    text: 'Let me check the safe temperatures.',
    toolCalls: [{ name: 'read_skill', input: { name: 'food-safety' } }],
  },
  (req) => {
    expectLoaded(req, 'food-safety', 'food-safety_read_file');
    return { toolCalls: [{ name: 'food-safety_read_file', input: { path: 'references/temperatures.md' } }] };
  },
  (req) => {
    expectResult(req, 'food-safety_read_file', /^\| Poultry[^|]*\|\s*165 °F \(74 °C\)/m);
    return { toolCalls: [{ name: 'read_skill', input: { name: 'units' } }] };
  },
  (req) => {
    expectLoaded(req, 'units', 'units_convert');
    return { toolCalls: [{ name: 'units_convert', input: { value: 165, from: 'F', to: 'C' } }] };
  },
  (req) => {
    const [, celsius] = expectResult(req, 'units_convert', /^165 °F = (\S+) °C/);
    return {
      text: `Yes, they are done: poultry is safe at 165 °F (74 °C) in the thickest part, with no rest time needed. 165 °F is ${celsius} °C.`,
    };
  },
];

/** What the CLI plays offline: the messages, and a fresh scripted model for each session. */
export const demo = {
  messages: DEMO_MESSAGES,
  model: () => scriptedModel(DEMO_STEPS),
};
