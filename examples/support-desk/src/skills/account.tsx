import { Instructions, Text, Tool, useAgentStore } from '@skilltree/core';
import { z } from 'zod';
import { useOrdersDb } from '../db.js';
import { desk, openTicket } from '../store.js';

/** Who the customer is: identify them by email, update their address. */
export function Account() {
  const db = useOrdersDb();
  const customer = useAgentStore(desk, (s) => s.customer);
  const record = customer ? db.customer(customer.id) : undefined;
  return (
    <>
      <Instructions>
        Identify the customer by the email address on their account before you look at or change anything. Do not read
        the full address back unless the customer asks for it.
      </Instructions>
      {record ? (
        <Text>
          Identified: {record.name} ({record.id}), customer since {record.since}. Address on file: {record.address}
        </Text>
      ) : (
        <Text>No customer identified yet.</Text>
      )}
      <Tool
        name="identify_customer"
        description="Find the customer's account by the email address they gave."
        input={z.object({ email: z.email().describe('The email address on the account') })}
        run={({ email }, ctx) => {
          const found = db.customerByEmail(email);
          if (!found) return `No account uses ${email}. Ask the customer to check the address, or for another one.`;
          desk.of(ctx).setState({ customer: { id: found.id, name: found.name, email: found.email } });
          return `Identified ${found.name} (${found.id}), customer since ${found.since}, ${db.ordersOf(found.id).length} orders.`;
        }}
      />
      {record && (
        <Tool
          name="update_address"
          description="Change the identified customer's shipping address for future orders."
          input={z.object({ address: z.string().min(10).describe('The full new address, one line') })}
          run={({ address }, ctx) => {
            db.updateAddress(record.id, address);
            const store = desk.of(ctx);
            const { state } = openTicket(store.getState(), {
              kind: 'address-change',
              summary: `Address changed to: ${address}`,
              status: 'done',
            });
            store.setState(state);
            return `Address updated. Orders that already shipped still go to the old address.`;
          }}
        />
      )}
    </>
  );
}
