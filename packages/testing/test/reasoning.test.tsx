import { Agent, scriptedModel } from '@skilltree/core';
import { reason, renderAgent, reply } from '@skilltree/testing';
import { expect, test } from 'vitest';

test('a scripted step can reason, and a test reads the reasoning beside the text the model wrote', async () => {
  const agent = renderAgent(<Agent />, {
    model: scriptedModel([reason('The user greets me; reply in kind.', reply('Hello!'))]),
  });
  const turn = await agent.say('hi');
  const answer = turn.messages[1];
  expect(answer).toEqual({ role: 'assistant', content: 'Hello!' });
  expect(answer.role === 'assistant' && answer.reasoning).toBe('The user greets me; reply in kind.');
  expect(answer.parts).toEqual([
    { type: 'reasoning', provider: 'scripted', model: 'scripted', text: 'The user greets me; reply in kind.' },
    { type: 'text', text: 'Hello!' },
  ]);
});

test('a tool result tells why it failed as data: errorKind', async () => {
  const agent = renderAgent(<Agent />);
  const refused = await agent.callTool('nope');
  expect(refused.isError).toBe(true);
  expect(refused.errorKind).toBe('unknown-tool');
  expect(refused.content).toMatch(/^Unknown tool: nope/);
});
