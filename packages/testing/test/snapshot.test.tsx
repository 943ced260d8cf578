import { scriptedModel } from '@skilltree/core';
import { callTool, cleanup, prettyRequest, readSkill, renderAgent, reply } from '@skilltree/testing';
import '@skilltree/testing/vitest';
import { afterEach, expect, test } from 'vitest';
import { ShopAgent } from './fixtures/shop.js';

afterEach(cleanup);

async function conversation() {
  const agent = renderAgent(<ShopAgent />, {
    model: scriptedModel([readSkill('shopping'), callTool('search', { q: 'lamp' }), reply('Found one.')]),
  });
  await agent.say('Find me a lamp');
  await agent.callTool('add_to_cart', { sku: 'lamp' });
  return agent;
}

test('agent.request() serialises deterministically, so toMatchSnapshot works', async () => {
  const first = await conversation();
  const request = first.request();
  first.unmount();
  const second = await conversation();
  expect(second.request()).toEqual(request);
  expect(request).toMatchSnapshot();
});

test('prettyRequest and the agent snapshot serializer print the same readable request', async () => {
  const agent = await conversation();
  expect(prettyRequest(agent.request(), { maxLength: Number.POSITIVE_INFINITY })).toMatchSnapshot();
  expect(agent).toMatchSnapshot();
});
