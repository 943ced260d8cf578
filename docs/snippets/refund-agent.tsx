import { Agent, createAgentStore, Instructions, Skill, Text, Tool, useAgentStore } from '@skilltree/core';
import { useState } from 'react';
import { z } from 'zod';

/** Your own system: it holds the card numbers. The agent only ever sees what its methods return. */
export interface CardVault {
  last4(customerId: string): string;
  refund(customerId: string, cents: number): string;
}

/** Who the customer is, once verified. An id, not a secret: it may appear in a snapshot. */
export const account = createAgentStore('account', () => ({ customerId: null as string | null }));

function Refunds({ vault }: { vault: CardVault }) {
  const [verified, setVerified] = useState(false);
  const customerId = useAgentStore(account, (s) => s.customerId);
  return (
    <>
      <Instructions>Verify the customer before any refund.</Instructions>
      <Text>
        {verified && customerId ? `Verified. Card on file ends in ${vault.last4(customerId)}.` : 'Not verified yet.'}
      </Text>
      <Tool
        name="verify_customer"
        description="Check the code the customer received by email"
        input={z.object({ code: z.string() })}
        run={({ code }, ctx) => {
          if (code !== '4711') throw new Error('That code is wrong.');
          account.of(ctx).setState({ customerId: 'cus_42' });
          setVerified(true);
          return 'Verified.';
        }}
      />
      {verified && (
        <Tool
          name="refund"
          description="Refund an amount to the card on file"
          input={z.object({ cents: z.number().int().positive() })}
          run={({ cents }, ctx) => {
            const receipt = vault.refund(account.of(ctx).getState().customerId!, cents);
            return `Refunded ${(cents / 100).toFixed(2)} EUR, receipt ${receipt}.`;
          }}
        />
      )}
    </>
  );
}

export const RefundAgent = ({ vault }: { vault: CardVault }) => (
  <Agent>
    <Instructions>You are a support agent.</Instructions>
    {/* `tools` names the tools the skill may render, so a call of `refund` before it is shown gets a hint. */}
    <Skill name="refunds" description="Refund a payment" tools={['verify_customer', 'refund']}>
      <Refunds vault={vault} />
    </Skill>
  </Agent>
);
