/**
 * `@opentelemetry/api` is an optional peer: when it cannot be imported, sessions work exactly as
 * without telemetry (here the import is made to fail as it does when the package is not installed).
 */
import { expect, test, vi } from 'vitest';
import { Agent, createSession, Instructions, scriptedModel } from '../src/index.js';
import { loadOpenTelemetry } from '../src/provider.js';

vi.mock('@opentelemetry/api', () => {
  throw new Error("Cannot find package '@opentelemetry/api'");
});

test('without @opentelemetry/api installed, tracing is off and turns run as usual', async () => {
  expect(await loadOpenTelemetry()).toBeNull();
  const session = createSession(
    <Agent>
      <Instructions>Hi.</Instructions>
    </Agent>,
    { model: scriptedModel([{ text: 'hello' }]), telemetry: { recordContent: true } },
  );
  const turn = await session.send('hi');
  expect(turn.text).toBe('hello');
  expect(session.transcript).toHaveLength(2);
});
