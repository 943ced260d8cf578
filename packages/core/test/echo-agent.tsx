/** The smallest agent for session tests: it only echoes, and a model that answers `echo: <the last message's text>`. */
import { Agent, type Model, Text } from '../src/index.js';

/** An agent with one line of instructions and no tools. */
export function Echo() {
  return (
    <Agent>
      <Text>You echo.</Text>
    </Agent>
  );
}

/** A model that answers `echo: <text of the last message>`, with no tool calls. */
export const echo = (): Model => ({
  name: 'echo',
  async generate(request) {
    const content = request.messages.at(-1)?.content;
    const said = Array.isArray(content) ? content.map((part) => ('text' in part ? part.text : '')).join('') : content;
    return { text: `echo: ${said}`, toolCalls: [] };
  },
});
