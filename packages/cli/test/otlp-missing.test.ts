/**
 * Rule: `--otlp` without the OpenTelemetry SDK installed fails with one line that names what to
 * install (the SDK is an optional peer, loaded only when traces are asked for).
 */
import { expect, test, vi } from 'vitest';
import { startTracing } from '../src/commands/serve/otlp.js';

vi.mock('@opentelemetry/sdk-trace-base', () => {
  throw new Error("Cannot find package '@opentelemetry/sdk-trace-base' imported from skilltree");
});

test('a missing SDK package is a clear error naming the packages to install', async () => {
  const error = (await startTracing('http://127.0.0.1:4318/v1/traces', {}).catch((e: unknown) => e)) as Error;
  expect(error).toBeInstanceOf(Error);
  expect(error.message).toMatch(
    /^--otlp needs the OpenTelemetry SDK, which is not installed \(@opentelemetry\/sdk-trace-base/,
  );
  expect(error.message).toContain(
    'npm install @opentelemetry/api@1.9 @opentelemetry/sdk-trace-base@2.12 @opentelemetry/exporter-trace-otlp-http@0.223',
  );
  expect(error.message.split('\n')).toHaveLength(1);
});
