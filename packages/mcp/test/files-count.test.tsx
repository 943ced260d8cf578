/**
 * An MCP server's files count toward the chat's `files.maxChatBytes`, as a user's and a tool's do.
 */
import { type Session, textOf } from '@skilltree/core';
import { McpTools } from '@skilltree/mcp';
import { afterEach, expect, test } from 'vitest';
import { openConnections } from '../src/connection.js';
import { type FixtureTool, inMemoryServer } from './fixtures/server.js';
import { agentWith, call, read, until } from './helpers.js';

/** A 1×1 PNG, base64: 70 bytes. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const sessions: Session[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) if (!session.disposed) session.dispose();
  await until(() => openConnections() === 0, 'every connection to close');
});

test("an MCP server's images count toward files.maxChatBytes: the one past it makes the call an error result naming the limit", async () => {
  const tools: FixtureTool[] = [
    {
      name: 'photo',
      inputSchema: { type: 'object' },
      handler: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
    },
  ];
  const session = agentWith(<McpTools name="s" transport={inMemoryServer(tools).transport} />, {
    files: { maxChatBytes: 140 },
  });
  sessions.push(session);
  await read(session);
  expect((await call(session, 'photo')).isError).toBeUndefined();
  expect((await call(session, 'photo')).isError).toBeUndefined();
  const third = await call(session, 'photo');
  expect(third.isError).toBe(true);
  expect(textOf(third)).toBe(
    'Tool "photo" returned a file that was refused: The chat would hold 210 bytes of files; at most 140 (files.maxChatBytes).',
  );
  expect(session.snapshot().fileBytes).toBe(140);
});
