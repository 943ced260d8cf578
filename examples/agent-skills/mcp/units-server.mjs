#!/usr/bin/env node
/**
 * A tiny MCP server over stdio, written with the official SDK: kitchen unit conversions.
 * Plain JavaScript so that `node mcp/units-server.mjs` runs it without a build.
 *
 * Tools:
 * - `convert`: a value from one unit to another of the same kind (mass, volume, temperature);
 * - `list_units`: the units `convert` knows, by kind.
 *
 * It exits when its stdin closes, as stdio servers should: that is how `<McpTools>` ends it when
 * the skill unloads.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { convert, UNITS } from './units.mjs';

const server = new McpServer({ name: 'kitchen-units', version: '1.0.0' });

server.registerTool(
  'convert',
  {
    title: 'Convert units',
    description:
      'Convert a quantity between kitchen units of the same kind: mass (g, kg, oz, lb), volume (ml, l, tsp, tbsp, fl_oz, cup, pint, quart) or temperature (C, F). US customary measures.',
    inputSchema: {
      value: z.number().describe('The quantity to convert, e.g. 165'),
      from: z.string().describe('The unit of value, e.g. "F", "cup", "oz"'),
      to: z.string().describe('The unit to convert to, e.g. "C", "ml", "g"'),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  ({ value, from, to }) => {
    try {
      return { content: [{ type: 'text', text: convert(value, from, to) }] };
    } catch (error) {
      return {
        content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
        isError: true,
      };
    }
  },
);

server.registerTool(
  'list_units',
  {
    title: 'List units',
    description: 'List the units that convert knows, grouped by kind.',
    inputSchema: { kind: z.enum(['mass', 'volume', 'temperature']).optional().describe('Only this kind') },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  ({ kind }) => {
    const kinds = kind ? [kind] : Object.keys(UNITS);
    const text = kinds.map((k) => `${k}: ${Object.keys(UNITS[k]).join(', ')}`).join('\n');
    return { content: [{ type: 'text', text }] };
  },
);

await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
