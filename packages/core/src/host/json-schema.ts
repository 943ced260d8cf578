/**
 * Tool inputs described by JSON Schema instead of zod: for MCP servers, Agent Skills scripts, and
 * users without zod. Validation goes through zod's own `fromJSONSchema`, so a JSON Schema input
 * fails with the same field-by-field messages a zod input does.
 */
import { fromJSONSchema } from 'zod';
import type { InputSchema } from './components.js';

/** Marks an input as JSON Schema; `prompt.ts` sends `schema` as the tool's `inputSchema` unchanged. */
export const JSON_SCHEMA = Symbol.for('skilltree.jsonSchema');

/** A `<Tool input>` made from a JSON Schema object. */
export interface JsonSchemaInput<T = Record<string, unknown>> extends InputSchema<T> {
  readonly [JSON_SCHEMA]: Record<string, unknown>;
}

type Validator = InputSchema['safeParse'];

function objectOnly(value: unknown): ReturnType<Validator> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return { success: true, data: value };
  return { success: false, error: { issues: [{ path: [], message: 'expected an object' }] } };
}

/**
 * Wraps a JSON Schema (an object schema, as MCP's `inputSchema`) for `<Tool input>`. The model
 * receives the schema as written; input is validated against it before `run` is called. Schemas
 * that zod cannot convert are still sent, and only checked to be objects.
 *
 * @example
 * <Tool name="add" description="Add two numbers"
 *       input={jsonSchema<{ a: number; b: number }>({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] })}
 *       run={({ a, b }) => a + b} />
 */
export function jsonSchema<T = Record<string, unknown>>(schema: Record<string, unknown>): JsonSchemaInput<T> {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new Error('jsonSchema() needs a JSON Schema object, e.g. { type: "object", properties: {} }.');
  }
  let validate: Validator | null = null;
  const sent = { type: 'object', properties: {}, ...schema };
  return {
    [JSON_SCHEMA]: sent,
    safeParse(value: unknown) {
      if (!validate) {
        try {
          const zod = fromJSONSchema(sent as Parameters<typeof fromJSONSchema>[0]);
          validate = (v) => zod.safeParse(v) as ReturnType<Validator>;
        } catch {
          validate = objectOnly;
        }
      }
      return validate(value) as ReturnType<InputSchema<T>['safeParse']>;
    },
  };
}

/** The JSON Schema of a `jsonSchema()` input, or undefined for any other input. */
export function rawJsonSchema(input: unknown): Record<string, unknown> | undefined {
  return input !== null && typeof input === 'object' ? (input as Partial<JsonSchemaInput>)[JSON_SCHEMA] : undefined;
}
