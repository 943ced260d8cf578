import { createSession } from '@skilltree/core';
import { cleanup, renderAgent } from '@skilltree/testing';
import { matchers, toHaveTool } from '@skilltree/testing/vitest';
import { afterEach, expect, test } from 'vitest';
import { ShopAgent } from './fixtures/shop.js';
import { thrownMessage } from './fixtures/thrown.js';

afterEach(cleanup);

/** The message of the assertion error `fn` throws. */
const failure = (fn: () => void) => thrownMessage(fn, 'expected the assertion to fail');

test('the matchers pass', async () => {
  const agent = renderAgent(<ShopAgent />);
  await agent.readSkill('shopping');
  await agent.readSkill('refunds');
  expect(agent).toHaveTool('add_to_cart');
  expect(agent).toHaveTool(/^ref/);
  expect(agent).not.toHaveTool('checkout');
  expect(agent).toHaveLoadedSkill('shopping');
  expect(agent).toHaveLoadedSkill('refunds');
  expect(agent).toHaveActiveSkill('refunds');
  expect(agent).not.toHaveActiveSkill('shopping');
  expect(agent).toHaveContext('Cart: empty');
  expect(agent).toHaveContext('Cart: emp');
  expect(agent).toHaveContext(/Refunds within \d+ days/);
  expect(agent).not.toHaveContext('Cart: lamp');
});

test('the matchers accept a skill: only its tools and context count', async () => {
  const agent = renderAgent(<ShopAgent />);
  await agent.readSkill('shopping');
  await agent.readSkill('refunds');
  const shopping = agent.getSkill('shopping');
  expect(shopping).toHaveTool('search');
  expect(shopping).not.toHaveTool('refund_order');
  expect(shopping).toHaveContext('Cart: empty');
  expect(shopping).not.toHaveContext('Refunds within');
});

test('the matchers accept a Session', async () => {
  const session = createSession(<ShopAgent />);
  await session.readSkill('shopping');
  expect(session).toHaveActiveSkill('shopping');
  expect(session).toHaveTool('search');
  expect(session).toHaveContext('Searches: 0');
  session.dispose();
});

test('failure messages say what was expected and print the request', async () => {
  const agent = renderAgent(<ShopAgent />);
  await agent.readSkill('shopping');
  expect(failure(() => expect(agent).toHaveTool('checkout'))).toMatchSnapshot();
  expect(failure(() => expect(agent).not.toHaveTool('search'))).toMatch(
    /^expected the request not to offer a tool "search", but it offers search \(skill "shopping"\)\./,
  );
  expect(failure(() => expect(agent).toHaveLoadedSkill('refunds'))).toMatch(
    /^expected skill "refunds" to be loaded\. Loaded skills: shopping \(active\)\.\n\n── system/,
  );
  expect(failure(() => expect(agent).not.toHaveLoadedSkill('shopping'))).toMatch(
    /^expected skill "shopping" not to be loaded\./,
  );
  expect(failure(() => expect(agent).toHaveActiveSkill('billing'))).toMatch(
    /^expected skill "billing" to be the active skill; the active skill is "shopping"\. Loaded skills: shopping \(active\)\. The catalog has no skill "billing" \(skills: shopping, refunds, alpha, beta\)\./,
  );
  expect(failure(() => expect(agent).toHaveContext('Cart: lamp'))).toMatchSnapshot();
  expect(failure(() => expect(agent.getSkill('shopping')).not.toHaveContext(/Cart/))).toMatch(
    /^expected the context of skill "shopping" not to contain matching \/Cart\//,
  );
});

test('a matcher given something else explains what it needs', () => {
  expect(() => expect({}).toHaveTool('x')).toThrow(
    'toHaveTool() needs an agent from renderAgent(), a Session, or a skill from agent.getSkill(); got object.',
  );
});

test('the matchers are exported for other runners', async () => {
  expect(Object.keys(matchers)).toEqual(['toHaveTool', 'toHaveLoadedSkill', 'toHaveActiveSkill', 'toHaveContext']);
  const agent = renderAgent(<ShopAgent />);
  expect(toHaveTool.call({ isNot: false }, agent, 'whoami').pass).toBe(true);
  expect(toHaveTool.call({ isNot: false }, agent, 'search').pass).toBe(false);
});
