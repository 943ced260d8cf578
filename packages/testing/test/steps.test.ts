import { callTool, callTools, readSkill, reply } from '@skilltree/testing';
import { expect, test } from 'vitest';

test('step builders return scripted steps whose calls get session ids', () => {
  expect(readSkill('shopping')).toEqual({ toolCalls: [{ id: '', name: 'read_skill', input: { name: 'shopping' } }] });
  expect(readSkill('shopping', { toolName: 'load', text: 'Let me look.' })).toEqual({
    text: 'Let me look.',
    toolCalls: [{ id: '', name: 'load', input: { name: 'shopping' } }],
  });
  expect(callTool('add_to_cart', { sku: 'lamp' })).toEqual({
    toolCalls: [{ id: '', name: 'add_to_cart', input: { sku: 'lamp' } }],
  });
  expect(callTool('whoami')).toEqual({ toolCalls: [{ id: '', name: 'whoami', input: {} }] });
  expect(reply('Done.')).toEqual({ text: 'Done.' });
  expect(callTools(readSkill('a', { text: 'One.' }), callTool('b', { x: 1 }))).toEqual({
    text: 'One.',
    toolCalls: [
      { id: '', name: 'read_skill', input: { name: 'a' } },
      { id: '', name: 'b', input: { x: 1 } },
    ],
  });
});
