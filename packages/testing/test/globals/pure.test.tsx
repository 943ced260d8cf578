/// <reference types="vitest/globals" />
// `@skilltree/testing/pure` registers no cleanup, even with the runner's globals present.
import { Agent, Text } from '@skilltree/core';
import { type AgentHandle, cleanup, renderAgent } from '@skilltree/testing/pure';

let agent: AgentHandle;

test('an agent rendered with the pure entry…', () => {
  agent = renderAgent(
    <Agent>
      <Text>still here</Text>
    </Agent>,
  );
});

test('…stays mounted until cleanup() is called', () => {
  expect(agent.unmounted).toBe(false);
  expect(agent.getByText('still here')).toBeTruthy();
  cleanup();
  expect(agent.unmounted).toBe(true);
  expect(agent.queryByText('still here')).toBeNull();
});
