/**
 * The shop agent the lifecycle tests share (core's and the testing package's): a `shopping` skill
 * with local state (a `useState` count and a ref), a store (`cart`), an effect that logs its mount
 * and cleanup, and a tool that appears only once the cart has items; a `refunds` skill; and two
 * plain skills, `alpha` and `beta`, so that loading them pushes the others out.
 */
import {
  Agent,
  type AgentProps,
  createAgentStore,
  Instructions,
  Skill,
  Text,
  Tool,
  useAgentStore,
  useSkill,
} from '@skilltree/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { AppendTool } from './list-tool.js';

/** Mounts, unmounts and effect cleanups of the shopping skill, so a test sees the lifecycle from inside. */
export const shopLog: string[] = [];

/** The shop's cart: it lives outside the tree, so it survives the shopping skill's unmounts. */
export const cart = createAgentStore('cart', () => ({ items: [] as string[] }));

/**
 * The shopping skill's body: `search` (counts searches in `useState` and a ref), `add_to_cart`
 * (the store), and `checkout` once the cart has items. Its instructions add " Be brief." while it
 * is the active skill.
 */
export function Shopping() {
  const [searches, setSearches] = useState(0);
  const ref = useRef(0);
  const items = useAgentStore(cart, (s) => s.items);
  const { active } = useSkill();
  useEffect(() => {
    shopLog.push('shopping mounted');
    return () => {
      shopLog.push('shopping cleanup');
    };
  }, []);
  return (
    <>
      <Instructions>Search before you add.{active ? ' Be brief.' : ''}</Instructions>
      <Text>Searches: {searches}</Text>
      <Text>Ref: {ref.current}</Text>
      <Text>Cart: {items.join(', ') || 'empty'}</Text>
      <Tool
        name="search"
        description="Search the catalog"
        input={z.object({ q: z.string() })}
        run={({ q }) => {
          ref.current += 1;
          setSearches((n) => n + 1);
          return `found ${q}`;
        }}
      />
      <Tool
        name="add_to_cart"
        description="Add an item"
        input={z.object({ sku: z.string(), qty: z.number().int().positive().optional() })}
        run={({ sku }, ctx) => {
          cart.of(ctx).setState((s) => ({ items: [...s.items, sku] }));
          return `added ${sku}`;
        }}
      />
      {items.length > 0 && <Tool name="checkout" description="Pay" input={z.object({})} run={() => 'paid'} />}
    </>
  );
}

/**
 * The smallest shopping skill's body, for tests about what goes over the wire rather than about the
 * lifecycle: its instructions, the cart (`cart`), `children` (more tools), then `add_to_cart`.
 */
export function CartSkill({ children }: { children?: ReactNode }) {
  const items = useAgentStore(cart, (s) => s.items);
  return (
    <>
      <Instructions>Search before you add.</Instructions>
      <Text>Cart: {items.join(', ') || 'empty'}</Text>
      {children}
      <AppendTool store={cart} list="items" name="add_to_cart" description="Add an item" field="sku" />
    </>
  );
}

/** The refunds skill's body: a policy line and `refund_order` (`{ id }`). */
export function Refunds() {
  return (
    <>
      <Instructions>Refunds within 30 days.</Instructions>
      <Tool
        name="refund_order"
        description="Refund"
        input={z.object({ id: z.string() })}
        run={({ id }) => `refunded ${id}`}
      />
    </>
  );
}

/** A plain skill's body: a line saying `name` is here and a tool `<name>_ping`. */
export function Simple({ name }: { name: string }) {
  return (
    <>
      <Text>{name} is here</Text>
      <Tool name={`${name}_ping`} description={`Ping ${name}`} input={z.object({})} run={() => `${name} pong`} />
    </>
  );
}

/** The plain skills after shopping and refunds: name and description. */
const PLAIN = [
  ['alpha', 'Alpha'],
  ['beta', 'Beta'],
] as const;

/**
 * The shop: its instructions, then `children` (agent-level parts a test adds), then the skills
 * shopping, refunds, alpha and beta, in that order. Other props go to `<Agent>`.
 */
export const ShopAgent = ({ children, ...props }: AgentProps) => (
  <Agent {...props}>
    <Instructions>You are a shop assistant.</Instructions>
    {children}
    <Skill name="shopping" description="Find and buy products">
      <Shopping />
    </Skill>
    <Skill name="refunds" description="Refund an order">
      <Refunds />
    </Skill>
    {PLAIN.map(([name, description]) => (
      <Skill key={name} name={name} description={description}>
        <Simple name={name} />
      </Skill>
    ))}
  </Agent>
);
