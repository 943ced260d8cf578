import { useEffect, useState } from 'react';
import { expect, test } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  createAgentStore,
  createSession,
  Instructions,
  Skill,
  scriptedModel,
  Text,
  Tool,
  useAgentStore,
} from '../src/index.js';

const cart = createAgentStore('cart', () => ({ items: [] as string[] }));

function Shopping() {
  const [searches, setSearches] = useState(0);
  const [echo, setEcho] = useState(0);
  useEffect(() => {
    setEcho(searches * 10);
  }, [searches]);
  const items = useAgentStore(cart, (s) => s.items);
  return (
    <>
      <Instructions>Search before you add.</Instructions>
      <Text>
        Searches: {searches} echo {echo}
      </Text>
      <Text>Cart: {items.join(', ') || 'empty'}</Text>
      <Tool
        name="search"
        description="Search"
        input={z.object({ q: z.string() })}
        run={({ q }) => {
          setSearches((n) => n + 1);
          return `found ${q}`;
        }}
      />
      <Tool
        name="add_to_cart"
        description="Add"
        input={z.object({ sku: z.string() })}
        run={({ sku }, ctx) => {
          cart.of(ctx).setState((s) => ({ items: [...s.items, sku] }));
          return `added ${sku}`;
        }}
      />
      {items.length > 0 && <Tool name="checkout" description="Pay" input={z.object({})} run={() => 'paid'} />}
    </>
  );
}

const ShopAgent = () => (
  <Agent>
    <Instructions>You are a shop assistant.</Instructions>
    <Skill name="shopping" description="Find and buy products">
      <Shopping />
    </Skill>
    <Skill name="refunds" description="Refund an order">
      <Text>Refund policy: 30 days</Text>
    </Skill>
  </Agent>
);

test('smoke', async () => {
  const model = scriptedModel([
    { toolCalls: [{ name: 'read_skill', input: { name: 'shopping' } }] },
    {
      toolCalls: [
        { name: 'search', input: { q: 'lamp' } },
        { name: 'add_to_cart', input: { sku: 'lamp' } },
        { name: 'checkout', input: {} },
        { name: 'nope', input: {} },
      ],
    },
    { text: 'Bought a lamp.' },
  ]);
  const session = createSession(<ShopAgent />, { model });
  const turn = await session.send('I need a lamp');
  console.log(JSON.stringify(session.transcript, null, 1));
  console.log(session.request().system);
  console.log(session.request().context);
  console.log(session.request().tools.map((t) => t.name));
  expect(turn.text).toBe('Bought a lamp.');
});
