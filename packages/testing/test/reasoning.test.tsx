import { Agent, scriptedModel, textOf } from '@skilltree/core';
import { reason, renderAgent, reply } from '@skilltree/testing';
import { expect, test } from 'vitest';

test('a scripted step can reason, and a test reads the reasoning beside the text the model wrote', async () => {
  const agent = renderAgent(<Agent />, {
    model: scriptedModel([reason('The user greets me; reply in kind.', reply('Hello!'))]),
  });
  const turn = await agent.say('hi');
  const answer = turn.messages[1];
  expect(textOf(answer)).toBe('Hello!');
  expect(answer.content).toEqual([
    { type: 'reasoning', provider: 'scripted', model: 'scripted', text: 'The user greets me; reply in kind.' },
    { type: 'text', text: 'Hello!' },
  ]);
});

test('a tool result tells why it failed as data: errorKind', async () => {
  const agent = renderAgent(<Agent />);
  const refused = await agent.callTool('nope');
  expect(refused.isError).toBe(true);
  expect(refused.errorKind).toBe('unknown-tool');
  expect(textOf(refused)).toMatch(/^Unknown tool: nope/);
});

test('a test sees waiting calls and approves or denies them; a tool result can hold files', async () => {
  const { Tool, toolResult } = await import('@skilltree/core');
  const { z } = await import('zod');
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const agent = renderAgent(
    <Agent>
      <Tool
        name="refund"
        description="Refund"
        input={z.object({ cents: z.number() })}
        needsApproval
        run={() => 'refunded'}
      />
      <Tool name="shot" description="Screenshot" input={z.object({})} run={() => toolResult('Here:', { data: png })} />
    </Agent>,
    { model: scriptedModel([{ toolCalls: [{ name: 'refund', input: { cents: 5 } }] }, reply('Done.')]) },
  );
  await agent.say('refund please');
  expect(agent.waiting).toMatchObject([{ name: 'refund', input: { cents: 5 }, for: 'approval' }]);
  const turn = await agent.approve(agent.waiting[0].toolCallId);
  expect(textOf(turn.messages[0])).toBe('refunded');
  expect(turn.text).toBe('Done.');
  const shot = await agent.callTool('shot');
  expect(textOf(shot)).toBe('Here:[file: image/png]');
  expect(shot.content[1]).toMatchObject({ type: 'file', mediaType: 'image/png' });
});
