/**
 * The smallest shop several adapter tests run a session on: one `add_to_cart` tool that answers
 * `added <sku>` and changes nothing else.
 */
import { Agent, Tool } from '@skilltree/core';
import { z } from 'zod';

/** The `add_to_cart` tool: takes a sku, answers `added <sku>`. */
export function AddToCart() {
  return <Tool name="add_to_cart" description="Add" input={z.object({ sku: z.string() })} run={addedSku} />;
}

const addedSku = ({ sku }: { sku: string }) => `added ${sku}`;

/** An agent offering only {@link AddToCart}. */
export function Shop() {
  return (
    <Agent>
      <AddToCart />
    </Agent>
  );
}
