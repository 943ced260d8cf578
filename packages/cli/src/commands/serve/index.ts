/**
 * `skilltree serve <module>`: what help says about it, and how to run it (the server loads only
 * when it runs).
 */
import type { CommandSpec } from '../../kit/command.js';

/** The `serve` command. */
export const serve: CommandSpec = {
  name: 'serve',
  synopsis: 'skilltree serve <module>',
  summary: 'serve it to web apps (AI SDK useChat) with a chat page',
  usage: 'skilltree serve <module> [options]',
  description: `Serve the agent over HTTP: the API a web app's useChat (AI SDK) talks to, and a small chat page.
  POST /api/chat           one turn; answers with the AI SDK UI message stream
  GET  /api/chat/:id       the conversation as UIMessage[]
  GET  /api/sessions/:id   the session: loaded skills, stores, usage
  GET  /                   the chat page

What it reads from the module: the agent (default export), "model" (a model, or (id, owner) => model),
"sessionOptions" (createSessions options: maxSteps, windowMode…), "budget" (each user's), "telemetry",
"authorize", "engine" (a durable engine, or a function serve calls once per serving process to make one:
turns then finish after a crash, docs/durable.md) and "demo". Flags win where both set the same thing.
See docs/cli.md.

Who may chat: the module's "authorize" export, (request) => userId | null, when it has one;
otherwise loopback clients only (one local user). See docs/serving.md.

Traces: --otlp <url> (or $OTEL_EXPORTER_OTLP_ENDPOINT) exports OpenTelemetry spans of every request,
turn, model call, tool call and skill load over OTLP/HTTP. It needs the SDK installed beside skilltree:
npm install @opentelemetry/api@1.9 @opentelemetry/sdk-trace-base@2.12 @opentelemetry/exporter-trace-otlp-http@0.223
See docs/observability.md.`,
  run: async (args, io) => (await import('./serve.js')).serveCommand(args, io),
};
