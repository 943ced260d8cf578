/**
 * One message shape: what the handle returns (`turn.messages`, `transcript`, `request().messages`,
 * `callTool`'s result) is core's message, the shape a scripted model records in `requests[i].messages`.
 */
import { Agent, scriptedModel, Tool, textOf } from '@skilltree/core';
import { callTool, renderAgent, reply, testMessage, testTurn } from '@skilltree/testing';
import { expect, test } from 'vitest';
import { z } from 'zod';

const Echo = () => (
  <Agent>
    <Tool name="echo" description="Echo" input={z.object({ text: z.string() })} run={({ text }) => `echo: ${text}`} />
  </Agent>
);

test('a message read from turn.messages and from model.requests[i].messages is deep-equal', async () => {
  const model = scriptedModel([callTool('echo', { text: 'hi' }), reply('Done.')]);
  const agent = renderAgent(<Echo />, { model });

  const turn = await agent.say('say hi');

  // The second request carries the user message, the call and its result: the first three of the turn.
  const sent = model.requests[1].messages;
  expect(turn.messages.slice(0, 3)).toEqual(sent);
  expect(turn.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'say hi' }] });
  expect(textOf(turn.messages[2])).toBe('echo: hi');
  expect(agent.transcript).toEqual(turn.messages);
  expect(agent.request().messages).toEqual(agent.transcript);
});

test("callTool's result is the tool message the next request carries, in the same shape", async () => {
  const agent = renderAgent(<Echo />);
  const result = await agent.callTool('echo', { text: 'yo' });
  expect(result.content).toEqual([{ type: 'text', text: 'echo: yo' }]);
  expect(agent.request().messages.at(-1)).toEqual(result);
});

test('a returned message is a copy: changing it leaves the session as it was', async () => {
  const agent = renderAgent(<Echo />);
  const result = await agent.callTool('echo', { text: 'yo' });
  result.content.push({ type: 'text', text: 'forged' });
  expect(textOf(agent.transcript[1])).toBe('echo: yo');
});

test('the deprecated text views still read a core message as text', async () => {
  const agent = renderAgent(<Echo />, { model: scriptedModel([reply('Hello!')]) });
  const turn = await agent.say('hi');
  expect(testTurn(turn).messages).toEqual([
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'Hello!' },
  ]);
  expect(testMessage(turn.messages[1]).parts).toEqual([{ type: 'text', text: 'Hello!' }]);
});
