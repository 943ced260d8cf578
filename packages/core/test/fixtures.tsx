import { type ReactNode, useEffect, useRef, useState } from 'react';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentProps,
  createAgentStore,
  Instructions,
  type Message,
  type Model,
  type Session,
  type SessionStore,
  Skill,
  Text,
  Tool,
  useAgentStore,
  useSkill,
} from '../src/index.js';
import type { Commit } from '../src/provider.js';

/** Records mounts, unmounts and effect cleanups so tests can see the lifecycle from inside. */
export const log: string[] = [];

export const cart = createAgentStore('cart', () => ({ items: [] as string[] }));

export function Shopping() {
  const [searches, setSearches] = useState(0);
  const ref = useRef(0);
  const items = useAgentStore(cart, (s) => s.items);
  const { active } = useSkill();
  useEffect(() => {
    log.push('shopping mounted');
    return () => {
      log.push('shopping cleanup');
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

export function Simple({ name }: { name: string }) {
  return (
    <>
      <Text>{name} is here</Text>
      <Tool name={`${name}_ping`} description={`Ping ${name}`} input={z.object({})} run={() => `${name} pong`} />
    </>
  );
}

export const ShopAgent = (props: AgentProps) => (
  <Agent {...props}>
    <Instructions>You are a shop assistant.</Instructions>
    <Skill name="shopping" description="Find and buy products">
      <Shopping />
    </Skill>
    <Skill name="refunds" description="Refund an order">
      <Refunds />
    </Skill>
    <Skill name="alpha" description="Alpha">
      <Simple name="alpha" />
    </Skill>
    <Skill name="beta" description="Beta">
      <Simple name="beta" />
    </Skill>
  </Agent>
);

/**
 * An agent with one skill per entry of `skills`, named and described by its key, in that order: for
 * tests about what a skill's components do, not about how the skill is described.
 */
export const SkillsAgent = ({ skills, ...props }: AgentProps & { skills: Record<string, ReactNode> }) => (
  <Agent {...props}>
    {Object.entries(skills).map(([name, body]) => (
      <Skill key={name} name={name} description={name}>
        {body}
      </Skill>
    ))}
  </Agent>
);

export const counter = createAgentStore('counter', () => ({ count: 0 }));
/** Every run of the counter skill's `bump` tool, for tests that check a tool ran. */
export const bumps: string[] = [];

/** A skill with a store count (survives unloads) and a local count (does not), and a tool that bumps both. */
export function Counter() {
  const [local, setLocal] = useState(0);
  const count = useAgentStore(counter, (s) => s.count);
  return (
    <>
      <Text>
        count {count}, local {local}
      </Text>
      <Tool
        name="bump"
        description="b"
        input={z.object({})}
        run={(_, ctx) => {
          bumps.push('bump');
          setLocal((n) => n + 1);
          counter.of(ctx).setState((s) => ({ count: s.count + 1 }));
          return 'bumped';
        }}
      />
    </>
  );
}

/** A model for {@link CounterAgent}: reads the counter skill when it is not loaded, bumps once, then answers with both counts. */
export const bumper = (): Model => ({
  async generate(req) {
    const last = req.messages[req.messages.length - 1];
    if (last.role === 'user') {
      return req.tools.some((t) => t.name === 'bump')
        ? { text: '', toolCalls: [{ id: '', name: 'bump', input: {} }] }
        : { text: '', toolCalls: [{ id: '', name: 'read_skill', input: { name: 'counter' } }] };
    }
    if (last.role === 'tool' && last.name === 'read_skill')
      return { text: '', toolCalls: [{ id: '', name: 'bump', input: {} }] };
    return { text: req.context.match(/count \d+, local \d+/)?.[0] ?? '?', toolCalls: [] };
  },
});

/** An agent with one skill, `counter`. */
export const CounterAgent = () => (
  <Agent>
    <Skill name="counter" description="c">
      <Counter />
    </Skill>
  </Agent>
);

/** Runs a tool call as the model would: an assistant message holding the call, then its result. */
export async function call(session: Session, name: string, input: unknown = {}) {
  const [toolCall] = session.addAssistantMessage({ content: '', toolCalls: [{ id: '', name, input }] }).toolCalls!;
  return session.callTool(toolCall);
}

/** Every tool call in the transcript has exactly one result, right after its assistant message. */
export function expectResultsFollowCalls(transcript: readonly Message[]) {
  for (let i = 0; i < transcript.length; i++) {
    const m = transcript[i];
    if (m.role !== 'assistant' || !m.toolCalls) continue;
    const results = transcript.slice(i + 1, i + 1 + m.toolCalls.length);
    expect(results.map((r) => (r.role === 'tool' ? r.toolCallId : r.role))).toEqual(m.toolCalls.map((c) => c.id));
  }
}

/**
 * Creates chat `id` in `store` as an earlier version wrote it, for tests that read old records:
 * `append` holds messages from before messages had parts (read back upgraded).
 */
export async function commitOldChat(
  store: SessionStore,
  id: string,
  holder: string,
  chat: { append: object[] } & Pick<Commit, 'state' | 'owner' | 'leaseTtl'>,
) {
  await store.acquire(id, holder, 1_000);
  await store.commit(id, { holder, version: 0, epoch: 'e1', ...chat, append: chat.append as Message[] });
}
