import { cleanup, renderAgent, within } from '@skilltree/testing';
import { afterEach, expect, test } from 'vitest';
import { ShopAgent } from './fixtures/shop.js';

afterEach(cleanup);

test('within(skill) scopes every query to one skill', async () => {
  const agent = renderAgent(<ShopAgent />);
  await agent.readSkill('shopping');
  await agent.readSkill('refunds');
  const shopping = within(agent.getSkill('shopping'));
  const refunds = within(agent.getBySkill('refunds'));

  expect(shopping.getAllTools().map((t) => t.name)).toEqual(['search', 'add_to_cart']);
  expect(refunds.getAllTools().map((t) => t.name)).toEqual(['refund_order']);
  expect(shopping.queryByTool('refund_order')).toBeNull();
  expect(shopping.queryByTool('whoami')).toBeNull();
  expect(shopping.getByText('Cart: empty').skill).toBe('shopping');
  expect(refunds.queryByText('Cart: empty')).toBeNull();
  // The system prompt and agent text belong to no skill.
  expect(shopping.queryByText('Plan: free')).toBeNull();
  expect(shopping.queryAllBySkill(/./).map((s) => s.name)).toEqual(['shopping']);
  expect(() => refunds.getByTool('search')).toThrow(
    'Unable to find a tool "search" in skill "refunds". Tools in the request: refund_order.',
  );
});

test('scoped queries read the live request, and say when the skill is not loaded', async () => {
  const agent = renderAgent(<ShopAgent />, { maxLoadedSkills: 1 });
  await agent.readSkill('shopping');
  const shopping = within(agent.getSkill('shopping'));
  const found = shopping.findByText('Cart: lamp');
  await agent.callTool('add_to_cart', { sku: 'lamp' });
  expect((await found).text).toBe('Cart: lamp');
  expect(shopping.getByTool('checkout')).toBeTruthy();

  await agent.readSkill('refunds'); // pushes shopping out
  expect(shopping.queryByTool('checkout')).toBeNull();
  expect(() => shopping.getByText('Cart: lamp')).toThrow(/Skill "shopping" is not loaded: read it first\./);
});

test('within() refuses a plain object', () => {
  expect(() => within({ name: 'shopping', description: '', loaded: true, active: true, text: '', tools: [] })).toThrow(
    'within() needs a skill returned by agent.getSkill(name) or a *BySkill query',
  );
});
