/**
 * Listening on a port and waiting for Ctrl+C, for the commands that serve (`dev`, `serve`): one
 * wording for a taken or forbidden port, one way to stop.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CliError } from './errors.js';

/**
 * Starts `server` on `host:port` and resolves to the port it listens on (the free one picked for
 * port 0). Rejects with a {@link CliError} that names the port and what to do when it is taken or
 * not allowed.
 */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') {
        reject(
          new CliError(
            `Port ${port} on ${host} is already in use. Pass another port (--port ${port + 1}), or --port 0 for any free port.`,
          ),
        );
      } else if (error.code === 'EACCES') {
        reject(
          new CliError(
            `Not allowed to listen on port ${port} on ${host}: pick a port above 1024, or --port 0 for any free port.`,
          ),
        );
      } else {
        reject(new CliError(`Could not listen on ${host}:${port}: ${error.message}`));
      }
    };
    const onListening = () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/** Resolves on the first SIGINT (Ctrl+C) or SIGTERM, and stops listening for both. */
export function untilSignal(): Promise<void> {
  return new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
