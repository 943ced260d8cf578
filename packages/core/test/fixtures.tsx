import { type ReactNode, useState } from 'react';
import { expect } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AgentProps,
  createAgentStore,
  type Message,
  type Model,
  type Session,
  type SessionStore,
  Skill,
  Text,
  Tool,
  useAgentStore,
} from '../src/index.js';
import type { Commit } from '../src/provider.js';

// The shop agent the lifecycle tests use is test-kit's, shared with the testing package's tests.
export { cart, ShopAgent, shopLog as log } from '@skilltree/test-kit';

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
