import { type AgentHandle, cleanup, renderAgent } from '@skilltree/testing';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ShopAgent } from './fixtures/shop.js';
import { thrownMessage } from './fixtures/thrown.js';

afterEach(cleanup);

let agent: AgentHandle;
beforeEach(async () => {
  agent = renderAgent(<ShopAgent />);
  await agent.readSkill('shopping');
});

/** The message of the error `fn` throws. */
const errorOf = (fn: () => unknown) => thrownMessage(fn, 'expected the query to throw');

describe('ByTool', () => {
  test('getByTool matches a whole name and returns the tool as the model sees it', () => {
    expect(agent.getByTool('add_to_cart')).toEqual({
      name: 'add_to_cart',
      description: 'Add an item',
      inputSchema: expect.objectContaining({ type: 'object', required: ['sku'] }),
      skill: 'shopping',
    });
    expect(agent.getByTool('whoami').skill).toBeNull();
    expect(agent.getByTool('read_skill').skill).toBeNull();
  });

  test('a string is a whole name; a RegExp matches anywhere; { exact: false } matches a part, ignoring case', () => {
    expect(agent.queryByTool('add')).toBeNull();
    expect(agent.getByTool(/cart/).name).toBe('add_to_cart');
    expect(agent.getByTool('TO_CART', { exact: false }).name).toBe('add_to_cart');
    expect(agent.getByTool((name, tool) => name.startsWith('s') && tool.skill === 'shopping').name).toBe('search');
  });

  test('getAllByTool / queryAllByTool return every match in request order', () => {
    expect(agent.getAllByTool(/a/).map((t) => t.name)).toEqual(['read_skill', 'whoami', 'search', 'add_to_cart']);
    expect(agent.queryAllByTool(/^zzz/)).toEqual([]);
  });

  test('queryByTool returns null when missing and throws when several match', () => {
    expect(agent.queryByTool('checkout')).toBeNull();
    expect(() => agent.queryByTool(/a/)).toThrow(/Found 4 tools matching \/a\//);
  });

  test('getByTool and getAllByTool throw an error that prints the request', () => {
    const message = errorOf(() => agent.getByTool('checkout'));
    expect(message).toMatchSnapshot();
    expect(errorOf(() => agent.getAllByTool(/refund/))).toContain(
      'Unable to find a tool matching /refund/. Tools in the request: read_skill, whoami, search, add_to_cart.',
    );
    expect(errorOf(() => agent.getByTool(/_/))).toMatch(/^Found 2 tools matching \/_\/: read_skill, add_to_cart\./);
  });

  test('getAllTools lists every tool in request order', () => {
    expect(agent.getAllTools().map((t) => t.name)).toEqual(['read_skill', 'whoami', 'search', 'add_to_cart']);
  });

  test('findByTool waits for a tool that appears later; findAllByTool too', async () => {
    const pending = agent.findByTool('checkout');
    await agent.callTool('add_to_cart', { sku: 'lamp' });
    expect((await pending).name).toBe('checkout');
    expect((await agent.findAllByTool(/check/)).map((t) => t.name)).toEqual(['checkout']);
  });

  test('findByTool rejects after its timeout with the getBy error', async () => {
    await expect(agent.findByTool('refund', {}, { timeout: 60 })).rejects.toThrow(
      'Unable to find a tool "refund". Tools in the request: read_skill, whoami, search, add_to_cart.',
    );
  });
});

describe('ByText', () => {
  test('searches the system prompt and <current_context>, line by line', () => {
    expect(agent.getByText('You are a shop assistant.')).toEqual({
      text: 'You are a shop assistant.',
      source: 'system',
      skill: null,
    });
    expect(agent.getByText('Plan: free')).toEqual({ text: 'Plan: free', source: 'context', skill: null });
    expect(agent.getByText('Cart: empty')).toEqual({ text: 'Cart: empty', source: 'context', skill: 'shopping' });
    expect(agent.getByText('- refunds — Refund an order').source).toBe('system');
  });

  test('a string matches a whole line after trimming; a RegExp anywhere; { exact: false } a part', () => {
    expect(agent.queryByText('Cart:')).toBeNull();
    expect(agent.getByText('   Cart: empty  ').text).toBe('Cart: empty');
    expect(agent.getByText(/Cart: \w+/).text).toBe('Cart: empty');
    expect(agent.getByText('cart: EMP', { exact: false }).text).toBe('Cart: empty');
    expect(agent.getByText((line, match) => match.skill === 'shopping' && line.endsWith('brief.')).text).toBe(
      'Search before you add. Be brief.',
    );
  });

  test('a string with line breaks matches consecutive lines of one section', () => {
    expect(agent.getByText('Searches: 0\nRef: 0\nCart: empty')).toEqual({
      text: 'Searches: 0\nRef: 0\nCart: empty',
      source: 'context',
      skill: 'shopping',
    });
    // The agent's text and the skill's text are different sections.
    expect(agent.queryByText('Plan: free\nSearch before you add. Be brief.')).toBeNull();
  });

  test('getAllByText / queryAllByText / queryByText', () => {
    expect(agent.getAllByText(/refund/i).map((m) => m.text)).toEqual(['- refunds — Refund an order']);
    expect(agent.queryAllByText('nothing like this')).toEqual([]);
    expect(() => agent.queryByText(/Search/)).toThrow(/Found 2 lines matching \/Search\//);
  });

  test('getByText throws an error that explains string matching and prints the request', () => {
    expect(errorOf(() => agent.getByText('Cart: lamp'))).toMatchSnapshot();
  });

  test('findByText waits for text a tool adds', async () => {
    const pending = agent.findByText('Cart: lamp');
    await agent.callTool('add_to_cart', { sku: 'lamp' });
    expect((await pending).skill).toBe('shopping');
    expect(await agent.findAllByText(/^Cart/)).toHaveLength(1);
  });
});

describe('BySkill', () => {
  test('matches catalog skills, loaded or not', () => {
    expect(agent.getBySkill('shopping')).toEqual({
      name: 'shopping',
      description: 'Find and buy products',
      loaded: true,
      active: true,
      text: 'Search before you add. Be brief.\nSearches: 0\nRef: 0\nCart: empty',
      tools: ['search', 'add_to_cart'],
    });
    expect(agent.getBySkill('refunds')).toEqual({
      name: 'refunds',
      description: 'Refund an order',
      loaded: false,
      active: false,
      text: '',
      tools: [],
    });
  });

  test('every variant', async () => {
    expect(agent.getAllBySkill(/s/).map((s) => s.name)).toEqual(['shopping', 'refunds']);
    expect(agent.queryAllBySkill('nope')).toEqual([]);
    expect(agent.queryBySkill('nope')).toBeNull();
    expect(() => agent.queryBySkill(/s/)).toThrow(/Found 2 skills/);
    expect((await agent.findBySkill('refunds')).loaded).toBe(false);
    expect(await agent.findAllBySkill(/^r/)).toHaveLength(1);
    expect(errorOf(() => agent.getBySkill('billing'))).toMatch(
      /^Unable to find a skill "billing"\. Skills in the catalog: shopping, refunds, alpha, beta\./,
    );
  });

  test('getSkill reads one skill by exact name, and throws for unknown names', async () => {
    expect(agent.getSkill('shopping')).toMatchObject({ loaded: true, active: true });
    await agent.readSkill('refunds');
    expect(agent.getSkill('shopping')).toMatchObject({ loaded: true, active: false });
    expect(agent.getSkill('refunds')).toMatchObject({ loaded: true, active: true, tools: ['refund_order'] });
    expect(() => agent.getSkill('billing')).toThrow(
      'agent.getSkill("billing"): no such skill. Skills in the catalog: shopping, refunds, alpha, beta.',
    );
  });
});
