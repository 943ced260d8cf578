/**
 * What one look of `dbosEngine`'s recovery watch reads from DBOS: the pending turns' ids and
 * executors, without their inputs or outputs (DBOS loads both unless told not to), and then the
 * inputs of the turns it has not seen before, once each: an input never changes, and a waiting
 * turn may stay pending for days while every process looks every 2 s. DBOS's API is stood in for
 * here (no database): the test counts what the watch asks of it.
 */
import type { DurableRegistration, DurableTurnInput } from '@skilltree/core/provider';
import { afterEach, expect, test, vi } from 'vitest';

interface Listing {
  status?: string;
  workflowName?: string;
  workflowIDs?: string[];
  loadInput?: boolean;
  loadOutput?: boolean;
}

const calls: Listing[] = [];
/** The listings of pending subagent children, and the children pending (their turns ended). */
const childCalls: Listing[] = [];
let children: string[] = [];
const claimedChildren: string[] = [];
let pending = ['t1', 't2'];
let looked = () => {};

vi.mock('@dbos-inc/dbos-sdk', () => ({
  DBOS: {
    setConfig: () => {},
    launch: async () => {},
    shutdown: async () => {},
    registerWorkflow: (fn: unknown) => fn,
    async listWorkflows(input: Listing) {
      // The sweep of subagent runs' children is counted apart (see also dbos-orphan-children.test.ts).
      if (input.workflowName === 'skilltree-subagent') {
        childCalls.push(input);
        return children.map((id) => ({ workflowID: id, executorId: 'dead' }));
      }
      if (input.workflowIDs?.every((id) => children.includes(id))) {
        childCalls.push(input);
        return input.workflowIDs.map((id) => ({
          workflowID: id,
          executorId: 'dead',
          input: [id, id.startsWith('of-') ? id.slice(3) : `gone-${id}`],
        }));
      }
      calls.push(input);
      if (input.workflowIDs) {
        return input.workflowIDs.map((id) => ({
          workflowID: id,
          executorId: 'dead',
          input: [id, { id: `chat-${id}` }],
        }));
      }
      looked();
      return pending.map((id) => ({ workflowID: id, executorId: 'dead' }));
    },
  },
  DBOSWorkflowConflictError: class extends Error {},
  Error: { DBOSNonExistentWorkflowError: class extends Error {} },
}));
vi.mock('../src/dbos-claim.js', () => ({
  claimTurn: async () => null,
  claimChild: async (id: string, from: string) => {
    claimedChildren.push(`${id} ${from}`);
    return true;
  },
  signalledTurns: async () => new Set<string>(),
}));

const { dbosEngine } = await import('../src/dbos.js');

/** Resolves once the watch has made `n` listings of pending turns. */
function looks(n: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (calls.filter((c) => c.status === 'PENDING').length >= n) resolve();
    };
    looked = check;
    check();
  });
}

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
});

/** A DBOS engine (DBOS stood in for) whose watch looks every 5 ms with `look` as its registration's. */
function watchWith(look: DurableRegistration['look']) {
  const engine = dbosEngine({ connectionString: 'postgres://nobody@127.0.0.1:1/none', recoveryInterval: 5 });
  close = () => engine.close();
  engine.register({ run: async () => null, abandoned: async () => false, look, hold: async () => null });
}

test("the watch lists pending turns without inputs or outputs, and reads each turn's input once", async () => {
  const engine = dbosEngine({ connectionString: 'postgres://nobody@127.0.0.1:1/none', recoveryInterval: 5 });
  close = () => engine.close();
  const asked: string[] = [];
  const registration: DurableRegistration = {
    run: async () => null,
    abandoned: async () => false,
    async look(input: DurableTurnInput, turnId?: string) {
      asked.push(`${turnId} ${input.id}`);
      return 'alive';
    },
    hold: async () => null,
  };
  engine.register(registration);
  await looks(2);
  pending = ['t1', 't2', 't3'];
  const before = calls.filter((c) => c.status === 'PENDING').length;
  await looks(before + 2);
  const listings = calls.filter((c) => c.status === 'PENDING');
  expect(listings.every((c) => c.loadInput === false && c.loadOutput === false)).toBe(true);
  // The inputs: of t1 and t2 once, then of t3 once, whatever the number of looks.
  expect(calls.filter((c) => c.workflowIDs).map((c) => c.workflowIDs)).toEqual([['t1', 't2'], ['t3']]);
  expect(calls.filter((c) => c.workflowIDs).every((c) => c.loadInput === true && c.loadOutput === false)).toBe(true);
  // Each look still asks about every pending turn, with its input.
  expect(asked).toContain('t3 chat-t3');
  expect(asked.filter((a) => a === 't1 chat-t1').length).toBeGreaterThanOrEqual(3);
});

test('a turn found waiting for its answers is looked at again only when signalled, or after 30 looks', async () => {
  calls.length = 0;
  pending = ['w1', 'a1'];
  let signalledNow = false;
  const claim = await import('../src/dbos-claim.js');
  vi.spyOn(claim, 'signalledTurns').mockImplementation(async () => new Set(signalledNow ? ['w1'] : []));
  const asked: string[] = [];
  watchWith(async (_input: DurableTurnInput, turnId?: string, seen?: { signalled?: boolean }) => {
    asked.push(`${turnId}${seen?.signalled ? ' signalled' : ''}`);
    return turnId === 'w1' && !seen?.signalled ? 'waiting' : 'alive';
  });
  // Ten looks done once the eleventh lists: the live turn every time, the waiting one once.
  await looks(11);
  expect(asked.filter((a) => a === 'a1').length).toBeGreaterThanOrEqual(10);
  expect(asked.filter((a) => a.startsWith('w1'))).toEqual(['w1']);
  // The 32nd look reads it again (its chat may have been deleted meanwhile).
  await looks(33);
  expect(asked.filter((a) => a.startsWith('w1'))).toEqual(['w1', 'w1']);
  // Signalled: looked at on the next look, with the engine's word.
  signalledNow = true;
  await looks(35);
  expect(asked).toContain('w1 signalled');
});

test('one turn whose look fails (a hostile or outdated input) passes over that turn only: the watch looks at the others, and again next time', async () => {
  calls.length = 0;
  pending = ['bad', 'good'];
  const claim = await import('../src/dbos-claim.js');
  vi.spyOn(claim, 'signalledTurns').mockImplementation(async () => new Set());
  const asked: string[] = [];
  watchWith(async (_input: DurableTurnInput, turnId?: string) => {
    asked.push(turnId as string);
    if (turnId === 'bad') throw new Error('Invalid chat id: too long');
    return 'alive';
  });
  await looks(4);
  // Every look reached the turn after the failing one, and tried the failing one again.
  expect(asked.filter((a) => a === 'good').length).toBeGreaterThanOrEqual(3);
  expect(asked.filter((a) => a === 'bad').length).toBeGreaterThanOrEqual(3);
});

test("the sweep lists pending children without inputs, reads each child's input once, and claims a child whose turn is pending nowhere", async () => {
  calls.length = 0;
  pending = ['t1'];
  // c1's turn ended (it is pending nowhere); the turn of of-t1 is t1, still pending.
  children = ['c1', 'of-t1'];
  watchWith(async () => 'alive');
  await looks(5);
  expect(childCalls.filter((c) => c.status === 'PENDING').every((c) => c.loadInput === false)).toBe(true);
  expect(childCalls.filter((c) => c.workflowIDs).map((c) => c.workflowIDs)).toEqual([['c1', 'of-t1']]);
  // c1 is claimed (on each look while DBOS still lists it pending); the child of a pending turn never.
  expect(claimedChildren[0]).toBe('c1 dead');
  expect(claimedChildren.every((c) => c === 'c1 dead')).toBe(true);
  children = [];
});
