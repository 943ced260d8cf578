/**
 * Starts the dev server on an agent module in its own process (as `skilltree dev` does) and prints
 * `{"url": ...}` on stdout. Used by the dev-server and playground end-to-end tests:
 * `node --import tsx test/dev-fixtures/serve.ts <module> [port]`.
 */
import { startDevServer } from '../../src/commands/dev/server.js';

const [module, port = '0'] = process.argv.slice(2);
if (!module) throw new Error('usage: serve.ts <module> [port]');
try {
  const server = await startDevServer({ module, port: Number(port) });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  const stop = () => {
    server.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
  process.exit(1);
}
