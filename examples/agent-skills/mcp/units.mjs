/**
 * The conversions of the units server, apart from the MCP plumbing so the tests can check them.
 * Mass in grams, volume in millilitres (US customary measures); temperature by formula.
 */

/** Factor to the base unit of each kind (grams, millilitres); temperature units have none. */
export const UNITS = {
  mass: { g: 1, kg: 1000, oz: 28.349523125, lb: 453.59237 },
  volume: {
    ml: 1,
    l: 1000,
    tsp: 4.92892159375,
    tbsp: 14.78676478125,
    fl_oz: 29.5735295625,
    cup: 236.5882365,
    pint: 473.176473,
    quart: 946.352946,
  },
  temperature: { C: null, F: null },
};

const ALIASES = {
  gram: 'g',
  grams: 'g',
  kilogram: 'kg',
  kilograms: 'kg',
  ounce: 'oz',
  ounces: 'oz',
  pound: 'lb',
  pounds: 'lb',
  lbs: 'lb',
  millilitre: 'ml',
  milliliter: 'ml',
  millilitres: 'ml',
  milliliters: 'ml',
  litre: 'l',
  liter: 'l',
  litres: 'l',
  liters: 'l',
  teaspoon: 'tsp',
  teaspoons: 'tsp',
  tablespoon: 'tbsp',
  tablespoons: 'tbsp',
  'fl oz': 'fl_oz',
  cups: 'cup',
  pints: 'pint',
  quarts: 'quart',
  '°c': 'C',
  celsius: 'C',
  '°f': 'F',
  fahrenheit: 'F',
};

const SYMBOL = { C: '°C', F: '°F' };

function resolve(unit) {
  const raw = String(unit).trim();
  const key = ALIASES[raw.toLowerCase()] ?? raw;
  for (const [kind, units] of Object.entries(UNITS)) {
    for (const name of Object.keys(units)) if (name.toLowerCase() === key.toLowerCase()) return { kind, name };
  }
  const known = Object.values(UNITS).flatMap((units) => Object.keys(units));
  throw new Error(`Unknown unit "${raw}". Use one of: ${known.join(', ')}.`);
}

/** At most 4 significant digits, without trailing zeros. */
function round(n) {
  return String(Number(n.toPrecision(4)));
}

function label(value, name) {
  return SYMBOL[name] ? `${value} ${SYMBOL[name]}` : `${value} ${name}`;
}

/** "165 °F = 73.89 °C"; throws for an unknown unit or two units of different kinds. */
export function convert(value, fromUnit, toUnit) {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error('value must be a finite number.');
  const from = resolve(fromUnit);
  const to = resolve(toUnit);
  if (from.kind !== to.kind) {
    throw new Error(`Cannot convert ${from.kind} (${from.name}) to ${to.kind} (${to.name}); pick units of one kind.`);
  }
  let result;
  if (from.kind === 'temperature') {
    const celsius = from.name === 'C' ? value : ((value - 32) * 5) / 9;
    result = to.name === 'C' ? celsius : (celsius * 9) / 5 + 32;
  } else {
    const units = UNITS[from.kind];
    result = (value * units[from.name]) / units[to.name];
  }
  return `${label(value, from.name)} = ${label(round(result), to.name)}`;
}
