import { PRICES } from '@skilltree/core';

// Core's price table as it is: US dollars per million tokens, each entry with its own date.
const rate = (value: number | undefined) => (value === undefined ? '–' : `$${value}`).padStart(7);
console.log(`${'model'.padEnd(22)}   input  output  c.read c.write  as of`);
for (const [name, price] of Object.entries(PRICES.models)) {
  const rates = [price.input, price.output, price.cacheRead, price.cacheWrite].map(rate).join(' ');
  const family = price.source.startsWith('family estimate') ? /rates of ([\w.-]+)/.exec(price.source)?.[1] : undefined;
  console.log(`${name.padEnd(22)} ${rates}  ${price.asOf}${family ? ` (estimate: ${family}'s rates)` : ''}`);
}
