/// <reference types="vitest/globals" />
// This project runs with `globals: true`: importing @skilltree/testing registers afterEach(cleanup).
import { Agent, Skill, Text } from '@skilltree/core';
import { type AgentHandle, renderAgent } from '@skilltree/testing';
import { Tracked } from '../fixtures/tracked.js';

const events: string[] = [];

const TrackedAgent = () => (
  <Agent>
    <Skill name="tracked" description="Tracks its lifecycle">
      <Tracked events={events}>
        <Text>tracked</Text>
      </Tracked>
    </Skill>
  </Agent>
);

let first: AgentHandle;

test('an agent rendered in one test…', async () => {
  first = renderAgent(<TrackedAgent />);
  await first.readSkill('tracked');
  expect(events).toEqual(['mounted']);
});

test('…is unmounted before the next test: effects cleaned up, session disposed', () => {
  expect(events).toEqual(['mounted', 'cleaned up']);
  expect(first.unmounted).toBe(true);
  expect(first.session.disposed).toBe(true);
  expect(first.queryByText('tracked')).toBeNull();
});
