/**
 * The agent the runner tests evaluate: a shop with three skills and a cart store.
 */
import { Agent, Instructions, Skill, Tool } from '@skilltree/core';
import { CartSkill } from '@skilltree/test-kit';
import { z } from 'zod';

export { cart } from '@skilltree/test-kit';

function Shopping() {
  return (
    <CartSkill>
      <Tool
        name="search"
        description="Search products"
        input={z.object({ q: z.string() })}
        run={({ q }) => `3 results for ${q}`}
      />
    </CartSkill>
  );
}

export interface ShopProps {
  /** The refunds skill's description. */
  refundsDescription?: string;
  /** Refunds wait for a person's approval. */
  approveRefunds?: boolean;
}

/** Refunds that ran, across trials: a refund that waits and is never approved is not here. */
export const refunded: string[] = [];

export function Shop({ refundsDescription = 'Refund a delivered order', approveRefunds = false }: ShopProps) {
  return (
    <Agent>
      <Instructions>You are a shop assistant.</Instructions>
      <Skill name="shopping" description="Find and buy products">
        <Shopping />
      </Skill>
      <Skill name="refunds" description={refundsDescription}>
        <Instructions>Refunds take 5 days.</Instructions>
        <Tool
          name="refund"
          description="Refund an order"
          input={z.object({ orderId: z.string() })}
          needsApproval={approveRefunds}
          run={({ orderId }) => {
            refunded.push(orderId);
            return `refunded ${orderId}`;
          }}
        />
      </Skill>
      <Skill name="billing" description="Charges and invoices">
        <Tool name="charges" description="List charges" run={() => 'no charges'} />
      </Skill>
    </Agent>
  );
}
