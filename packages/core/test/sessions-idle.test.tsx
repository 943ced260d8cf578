/**
 * A chat kept mounted in `createSessions`' cache lets go, while it waits for its next turn, of what
 * only made its last step cheaper (the serializer's caches, the tree snapshot, the request memo and
 * the last request): its next turn makes them again, equal in content, so it sends what a session
 * that kept them sends, and its `useState` goes on.
 */
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { HostChild, HostRoot } from '../src/host/node.js';
import {
  Agent,
  createSession,
  createSessions,
  type Model,
  type Session,
  Skill,
  Tool,
  useSession,
} from '../src/index.js';
import { lastRequestOf } from '../src/request/request.js';
import { stateOf } from '../src/sessions/session.js';
import { bumper, Counter, CounterAgent } from './fixtures.js';

/** The model, recording each request as JSON (call ids without the chat's incarnation). */
function recording(model: Model, into: string[]): Model {
  return {
    ...model,
    generate(req, options) {
      into.push(JSON.stringify(req).replace(/call_[a-z0-9]+_(\d+)/g, 'call_$1'));
      return model.generate(req, options);
    },
  };
}

/** The session that renders the tree, caught as it renders (`useSession`). */
function catcher() {
  const caught: { session: Session | null } = { session: null };
  const Catch = () => {
    caught.session = useSession() as Session;
    return null;
  };
  return { caught, Catch };
}

function caches(root: HostRoot): unknown[] {
  const out: unknown[] = [root.cache];
  const visit = (node: HostChild) => {
    if (node.kind === 'text') return;
    out.push(node.cache);
    for (const child of node.children) visit(child);
  };
  for (const child of root.children) visit(child);
  return out;
}

describe('a chat waiting in the session cache', () => {
  test('sends, turn after turn, the requests of a session that kept every cache, and its useState goes on', async () => {
    const cachedRequests: string[] = [];
    const sessions = createSessions(<CounterAgent />, { model: recording(bumper(), cachedRequests) });
    const plainRequests: string[] = [];
    const plain = createSession(<CounterAgent />, { model: recording(bumper(), plainRequests) });
    for (let turn = 1; turn <= 3; turn++) {
      expect((await sessions.send('c', 'bump')).text).toBe(`count ${turn}, local ${turn}`);
      expect((await plain.send('bump')).text).toBe(`count ${turn}, local ${turn}`);
    }
    expect(cachedRequests).toHaveLength(plainRequests.length);
    expect(cachedRequests).toEqual(plainRequests);
    plain.dispose();
    await sessions.close();
  });

  test('keeps no serializer cache, tree snapshot or last request while it waits', async () => {
    const { caught, Catch } = catcher();
    const sessions = createSessions(
      <Agent>
        <Catch />
        <Skill name="counter" description="c">
          <Counter />
        </Skill>
      </Agent>,
      { model: bumper() },
    );
    expect((await sessions.send('c', 'bump')).text).toBe('count 1, local 1');
    const state = stateOf(caught.session as Session);
    expect(caches(state.container.host).every((cache) => cache === undefined)).toBe(true);
    expect(state.skills.synced).toBeNull();
    expect(lastRequestOf(state)).toBeUndefined();
    // The next turn reads the tree again, and the skill's useState went on.
    expect((await sessions.send('c', 'bump')).text).toBe('count 2, local 2');
    await sessions.close();
  });

  test('keeps its last request while a call waits for approval: a fork started by the approved call begins from it', async () => {
    const { caught, Catch } = catcher();
    const model: Model = {
      async generate(req) {
        const last = req.messages[req.messages.length - 1];
        return last.role === 'user'
          ? { text: '', toolCalls: [{ id: 'p1', name: 'pay', input: {} }] }
          : { text: 'paid', toolCalls: [] };
      },
    };
    const sessions = createSessions(
      <Agent>
        <Catch />
        <Tool name="pay" description="p" input={z.object({})} needsApproval run={() => 'ok'} />
      </Agent>,
      { model },
    );
    const turn = await sessions.send('c', 'pay');
    expect(turn.waiting).toHaveLength(1);
    expect(lastRequestOf(stateOf(caught.session as Session))).toBeDefined();
    await sessions.close();
  });
});
