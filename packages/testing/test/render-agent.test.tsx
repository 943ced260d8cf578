import { scriptedModel, textOf } from '@skilltree/core';
import { callTool, cleanup, readSkill, renderAgent, reply } from '@skilltree/testing';
import { afterEach, expect, test, vi } from 'vitest';
import { ShopAgent } from './fixtures/shop.js';
import { Tracked } from './fixtures/tracked.js';

afterEach(cleanup);

test('renderAgent mounts synchronously; readSkill loads a skill', async () => {
  const agent = renderAgent(<ShopAgent />);
  expect(agent.getByText('Plan: free')).toBeTruthy();
  expect(agent.queryByTool('add_to_cart')).toBeNull();
  const read = await agent.readSkill('shopping');
  expect(read).toEqual({ name: 'shopping', mounted: true, unloaded: [] });
  expect(agent.getByTool('add_to_cart').skill).toBe('shopping');
  await expect(agent.readSkill('billing')).rejects.toThrow(
    'Unknown skill: "billing". Skills: shopping, refunds, alpha, beta.',
  );
});

test('callTool appends an assistant message holding the call, runs it, and returns the tool message', async () => {
  const agent = renderAgent(<ShopAgent />);
  await agent.readSkill('shopping');
  const result = await agent.callTool('add_to_cart', { sku: 'lamp' });
  expect(agent.transcript).toEqual([
    { role: 'assistant', content: [], toolCalls: [{ id: 'call_1', name: 'add_to_cart', input: { sku: 'lamp' } }] },
    result,
  ]);
  expect(result).toEqual({
    role: 'tool',
    toolCallId: 'call_1',
    name: 'add_to_cart',
    content: [
      { type: 'text', text: 'added lamp' },
      {
        type: 'context-changed',
        changes: [
          { kind: 'loaded', skill: 'shopping' },
          { kind: 'line', skill: 'shopping', text: 'Search before you add. Be brief.' },
          { kind: 'line', skill: 'shopping', text: 'Searches: 0' },
          { kind: 'line', skill: 'shopping', text: 'Ref: 0' },
          { kind: 'line', skill: 'shopping', text: 'Cart: lamp' },
        ],
      },
    ],
  });
  expect(textOf(result)).toBe(
    [
      'added lamp',
      'contextChanged shopping loaded',
      'contextChanged shopping added: Search before you add. Be brief.',
      'contextChanged shopping added: Searches: 0',
      'contextChanged shopping added: Ref: 0',
      'contextChanged shopping added: Cart: lamp',
    ].join('\n'),
  );
  // The next request reflects the change at once.
  expect(agent.getByText('Cart: lamp')).toBeTruthy();
  expect(agent.getByTool('checkout')).toBeTruthy();
});

test('callTool goes through validation and Unknown tool like a model call, without rejecting', async () => {
  const agent = renderAgent(<ShopAgent />);
  const unknown = await agent.callTool('add_to_cart', { sku: 'lamp' });
  expect(unknown.isError).toBe(true);
  expect(textOf(unknown)).toMatch(/^Unknown tool: add_to_cart/);
  await agent.callTool('read_skill', { name: 'shopping' });
  expect(agent.getSkill('shopping').active).toBe(true);
  const invalid = await agent.callTool('add_to_cart', { sku: 42 });
  expect(invalid.isError).toBe(true);
  expect(textOf(invalid)).toContain('sku');
  expect(agent.getByText('Cart: empty')).toBeTruthy();
  expect(agent.transcript.filter((m) => m.role === 'assistant')).toHaveLength(3);
});

test('say runs the scripted model loop', async () => {
  const model = scriptedModel([readSkill('shopping'), callTool('add_to_cart', { sku: 'lamp' }), reply('Added.')]);
  const agent = renderAgent(<ShopAgent />, { model });
  const turn = await agent.say('I need a lamp');
  expect(turn.text).toBe('Added.');
  expect(turn.steps).toBe(3);
  expect(agent.getByText('Cart: lamp')).toBeTruthy();
  expect(agent.model).toBe(model);
  expect(model.requests).toHaveLength(3);
  // Ids come from the session's counter: unique and the same on every run.
  const ids = agent.transcript.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
  expect(ids).toEqual(['call_1', 'call_2']);
});

test('say without a model fails with a message that says how to script one', async () => {
  const agent = renderAgent(<ShopAgent />);
  const error = await agent.say('hi').then(
    () => null,
    (e: Error) => e,
  );
  expect(error?.message.split('\n\n')[0]).toMatchInlineSnapshot(
    `"agent.say("hi") asked the model for a response, but renderAgent() was given no model. Script one: renderAgent(<MyAgent />, { model: scriptedModel([readSkill('…'), callTool('…', {…}), reply('…')]) })."`,
  );
  expect(error?.message).toContain('The request it could not answer:');
  expect(error?.message).toContain('[user]\n  hi');
});

test('say fails clearly when the script runs out of steps, and the transcript stays usable', async () => {
  const agent = renderAgent(<ShopAgent />, { model: scriptedModel([readSkill('shopping')]) });
  await expect(agent.say('hi')).rejects.toThrow(
    'agent.say("hi"): scriptedModel ran out of steps: 1 scripted, step 2 was requested.',
  );
  expect(agent.transcript.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  expect(agent.getSkill('shopping').loaded).toBe(true);
});

test('rerender keeps transcript, skills and stores; the tree is updated when it returns', async () => {
  const agent = renderAgent(<ShopAgent />);
  await agent.readSkill('shopping');
  await agent.callTool('add_to_cart', { sku: 'lamp' });
  void agent.rerender(<ShopAgent plan="pro" />);
  expect(agent.getByText('Plan: pro')).toBeTruthy();
  expect(agent.queryByText('Plan: free')).toBeNull();
  expect(agent.getByText('Cart: lamp')).toBeTruthy();
  expect(agent.transcript).toHaveLength(2);
  await agent.rerender(<ShopAgent plan="team" />);
  expect(agent.getByText('Plan: team')).toBeTruthy();
});

test('renderAgent and rerender throw the error the tree throws while rendering', () => {
  const Broken = (): never => {
    throw new Error('kaput');
  };
  expect(() => renderAgent(<Broken />)).toThrow('kaput');
  const agent = renderAgent(<ShopAgent />);
  expect(() => agent.rerender(<Broken />)).toThrow('kaput');
});

test('unmount runs effect cleanups, and queries then see an empty tree', async () => {
  const events: string[] = [];
  const agent = renderAgent(
    <>
      <ShopAgent />
      <Tracked events={events} />
    </>,
  );
  await agent.readSkill('shopping');
  expect(events).toEqual(['mounted']);
  agent.unmount();
  expect(events).toEqual(['mounted', 'cleaned up']);
  expect(agent.unmounted).toBe(true);
  expect(agent.session.disposed).toBe(true);
  expect(agent.queryByTool('add_to_cart')).toBeNull();
  expect(agent.getAllTools()).toEqual([]);
  expect(agent.queryByText('Plan: free')).toBeNull();
  expect(agent.queryAllBySkill(/./)).toEqual([]);
  expect(agent.request()).toEqual({ system: '', context: '', messages: [], tools: [], contextPlacement: 'end' });
  expect(() => agent.getByTool('search')).toThrow('(the agent is unmounted: nothing is rendered)');
  await expect(agent.callTool('search', { q: 'x' })).rejects.toThrow('agent.callTool() was called after unmount()');
  agent.unmount(); // idempotent
});

test('debug prints the request as the model receives it', async () => {
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const agent = renderAgent(<ShopAgent />);
  await agent.callTool('whoami');
  agent.debug();
  expect(log).toHaveBeenCalledTimes(1);
  expect(log.mock.calls[0][0]).toMatchSnapshot();
  agent.debug({ maxLength: 77 });
  expect(log.mock.calls[1][0]).toMatch(/^── system ─+\nYou are a sh\n… \d+ more characters/);
  log.mockRestore();
});

test('request() is a plain copy: mutating it does not touch the session', () => {
  const agent = renderAgent(<ShopAgent />);
  const request = agent.request();
  request.tools.length = 0;
  expect(agent.request().tools.length).toBe(2);
});

test('tool-call ids stay unique when the test and the scripted model both make calls', async () => {
  const agent = renderAgent(<ShopAgent />, { model: scriptedModel([callTool('whoami'), reply('Ada.')]) });
  await agent.callTool('whoami');
  await agent.say('who am I?');
  const ids = agent.transcript.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []));
  expect(ids).toEqual(['call_1', 'call_2']);
});

test('renderAgent({ snapshot }) starts from a saved session: transcript, loaded skills and stores', async () => {
  const first = renderAgent(<ShopAgent />);
  await first.readSkill('shopping');
  await first.callTool('add_to_cart', { sku: 'lamp' });
  const saved = JSON.stringify(first.session.snapshot());
  const restored = renderAgent(<ShopAgent />, { snapshot: saved });
  expect(restored.transcript).toEqual(first.transcript);
  expect(restored.session.loadedSkills).toEqual(['shopping']);
  expect(restored.request()).toEqual(first.request());
});
