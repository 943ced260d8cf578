/**
 * The crash load test's agent for `skilltree serve` (bench/load-crash.mjs): every user message makes
 * the model call one tool, `record`, whose side effect (a line in the file $BENCH_TOOL_LOG) is what
 * the test counts to find tools that ran twice (and, on a durable engine, with its idempotency key,
 * side effects that would have happened twice); then the model answers `echo: <text>`. The tool
 * takes a few milliseconds, so a process killed under load is often killed while one runs.
 *
 * With BENCH_SUBAGENT=1 the model hands each message to a subagent, `recorder`, whose own model
 * calls `record` and echoes; then the parent echoes. On a durable engine each run is a child
 * workflow of its turn (docs/durable.md, "Subagent runs"): a process killed mid-run has its turns'
 * runs finished by another process, and the side effects still happen once.
 */
import { appendFileSync } from 'node:fs';
import { Agent, Instructions, type Model, Subagent, Tool } from '@skilltree/core';
import { z } from 'zod';
import { echoModel } from './echo-model.js';

const log = process.env.BENCH_TOOL_LOG;

const viaSubagent = process.env.BENCH_SUBAGENT === '1';

/** The tool whose side effect the test counts. */
const record = (
  <Tool
    name="record"
    description="Record the message (a side effect the load test counts)"
    input={z.object({ text: z.string() })}
    run={async ({ text }, ctx) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      // One line per run, written at once: a run the process did not finish writes nothing. On a
      // durable engine the line carries the call's idempotency key, the same on every attempt of
      // the call: what a tool with a real side effect (a payment) passes on to dedupe it.
      if (log)
        appendFileSync(log, `${JSON.stringify([ctx.chat?.id, text, process.pid, ctx.idempotencyKey ?? null])}\n`);
      return 'recorded';
    }}
  />
);

export default function CrashAgent() {
  return (
    <Agent>
      <Instructions>Record each message, then echo it.</Instructions>
      {viaSubagent ? (
        <Subagent name="recorder" description="Records the message" model={recorderModel}>
          {record}
        </Subagent>
      ) : (
        record
      )}
    </Agent>
  );
}

/** The subagent's model: records its task's text, then echoes it (one object: a new one each render would change the props). */
const recorderModel = echoModel('recorder', (_req, text) => ({ name: 'record', input: { text } }));

/** Calls `record` with the newest user message, then echoes it. */
function recordingModel(): Model {
  if (viaSubagent) return echoModel('delegating', (_req, text) => ({ name: 'recorder', input: { task: text } }));
  return echoModel('recording', (_req, text) => ({ name: 'record', input: { text } }));
}

export const demo = { messages: [], model: recordingModel };

/** How long a dead process's chats stay taken (the test's BENCH_LEASE_TTL). */
export const sessionOptions = { leaseTtl: Number(process.env.BENCH_LEASE_TTL ?? 6_000) };

export function authorize(request: Request): string | null {
  return request.headers.get('x-bench-user');
}
