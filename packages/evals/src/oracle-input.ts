/**
 * The input `oracleModel` sends for an expected call: the case's plain values, with every input the
 * tool's JSON Schema requires filled in (the first enum value, the minimum, a word of the minimum
 * length, …), or the reason it cannot make one that both the schema and the case's matchers accept.
 */
import { matches, preview } from './match.js';

type Schema = Record<string, unknown>;

/** A value made, or why none could be. */
export type Made = { ok: true; value: unknown } | { ok: false; path: string; why: string };

/** A matcher that is plain JSON data (no RegExp, no function) can be sent as the input itself. */
export function plain(value: unknown): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(plain);
  if (typeof value === 'object' && !(value instanceof RegExp)) return Object.values(value as object).every(plain);
  return false;
}

const isSchema = (value: unknown): value is Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const at = (path: string) => path || 'input';
const cannot = (path: string, why: string): Made => ({ ok: false, path: at(path), why });

const FORMATS: Record<string, string> = {
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  'date-time': '2026-01-01T00:00:00.000Z',
  date: '2026-01-01',
  time: '00:00:00',
  uuid: '00000000-0000-4000-8000-000000000000',
};

function makeString(schema: Schema, path: string): Made {
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 1;
  const value = format ?? 'x'.repeat(Math.max(1, min));
  if (typeof schema.pattern === 'string') {
    let re: RegExp;
    try {
      re = new RegExp(schema.pattern, 'u');
    } catch {
      return cannot(path, `its schema's pattern ${preview(schema.pattern)} does not compile`);
    }
    if (!re.test(value)) return cannot(path, `its schema asks for the pattern /${schema.pattern}/`);
  }
  return { ok: true, value };
}

function makeNumber(schema: Schema, path: string, integer: boolean): Made {
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  let value = num('minimum') ?? (num('exclusiveMinimum') !== undefined ? Math.floor(num('exclusiveMinimum')!) + 1 : 1);
  const step = num('multipleOf');
  if (step && step > 0) value = Math.ceil(value / step) * step;
  if (integer) value = Math.ceil(value);
  const max = num('maximum');
  const below = num('exclusiveMaximum');
  if ((max !== undefined && value > max) || (below !== undefined && value >= below)) {
    return cannot(path, 'its schema leaves no number it can find');
  }
  return { ok: true, value };
}

/** A value the schema accepts, made from nothing. */
export function makeValue(schema: unknown, path = ''): Made {
  if (!isSchema(schema)) return { ok: true, value: null };
  if (Object.hasOwn(schema, 'const')) return { ok: true, value: schema.const };
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return { ok: true, value: schema.enum[0] };
  if (Object.hasOwn(schema, 'default')) return { ok: true, value: schema.default };
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (!Array.isArray(options)) continue;
    let first: Made | undefined;
    for (const option of options) {
      const made = makeValue(option, path);
      if (made.ok) return made;
      first ??= made;
    }
    return first ?? cannot(path, `its schema's ${key} is empty`);
  }
  const types = Array.isArray(schema.type)
    ? schema.type
    : [schema.type ?? (isSchema(schema.properties) ? 'object' : undefined)];
  const type = types.find((t) => t !== 'null') ?? types[0];
  switch (type) {
    case 'string':
      return makeString(schema, path);
    case 'number':
    case 'integer':
      return makeNumber(schema, path, type === 'integer');
    case 'boolean':
      return { ok: true, value: false };
    case 'null':
      return { ok: true, value: null };
    case 'array': {
      const items: unknown[] = [];
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      for (let i = 0; i < count; i++) {
        const made = makeValue(schema.items, `${path}[${i}]`);
        if (!made.ok) return made;
        items.push(made.value);
      }
      return { ok: true, value: items };
    }
    case 'object':
      return fillObject(schema, {}, path);
    case undefined:
      // No type and nothing else: the schema accepts anything.
      return Object.keys(schema).some((k) => k === 'allOf' || k === 'not' || k === '$ref')
        ? cannot(path, 'its schema is more than the oracle reads (allOf, not, $ref)')
        : { ok: true, value: null };
    default:
      return cannot(path, `its schema's type ${preview(type)} is not one the oracle knows`);
  }
}

/** An object with the expected keys (filled in as their schemas say) and every other required key made. */
function fillObject(schema: Schema, expected: Record<string, unknown>, path: string): Made {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === 'string') : [];
  const out: Record<string, unknown> = {};
  for (const key of required as string[]) {
    if (Object.hasOwn(expected, key)) continue;
    const made = makeValue(properties[key], path ? `${path}.${key}` : key);
    if (!made.ok) return made;
    out[key] = made.value;
  }
  for (const [key, want] of Object.entries(expected)) {
    const made = fill(properties[key], want, path ? `${path}.${key}` : key);
    if (!made.ok) return made;
    out[key] = made.value;
  }
  return { ok: true, value: out };
}

/**
 * The value to send where the case expects `expected` and the tool's schema says `schema`: plain
 * values as they are, plain objects completed with the required keys they leave out, and for a
 * RegExp or a predicate a value made from the schema, when it matches.
 */
export function fill(schema: unknown, expected: unknown, path = ''): Made {
  if (expected === undefined) return makeValue(schema, path);
  const object = expected !== null && typeof expected === 'object' && !Array.isArray(expected);
  if (object && !(expected instanceof RegExp) && isSchema(schema)) {
    return fillObject(schema, expected as Record<string, unknown>, path);
  }
  if (plain(expected)) return { ok: true, value: expected };
  const made = makeValue(schema, path);
  if (!made.ok) return made;
  return matches(made.value, expected)
    ? made
    : cannot(
        path,
        `${preview(made.value)} is all it can make, and it does not match ${expected instanceof RegExp ? String(expected) : 'the predicate'}`,
      );
}
