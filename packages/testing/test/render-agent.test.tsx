import { afterEach, expect, test, vi } from 'vitest';
import { cleanup, renderAgent } from '@skilltree/testing';
import { ShopAgent } from './fixtures/shop.js';

afterEach(cleanup);

test('renders, reads a skill, calls tools as the model would', async () => {
  const agent = renderAgent(<ShopAgent />);
  expect(agent.queryByTool('add_to_cart')).toBeNull();
  await agent.readSkill('shopping');
  expect(agent.getByTool('add_to_cart').skill).toBe('shopping');
  const result = await agent.callTool('add_to_cart', { sku: 'lamp' });
  expect(result).toMatchObject({ role: 'tool', name: 'add_to_cart', toolCallId: 'call_1' });
  expect(result.content).toContain('added lamp');
  expect(agent.getByText('Cart: lamp').skill).toBe('shopping');
  expect(agent.getByTool('checkout')).toBeTruthy();
  expect(agent.transcript.map((m) => m.role)).toEqual(['assistant', 'tool']);
  agent.debug();
});
