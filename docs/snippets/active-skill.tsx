import { Agent, createSession, Skill, Text, useSkill } from '@skilltree/core';

const orders = [
  { id: 'A-1', status: 'shipped' },
  { id: 'A-2', status: 'delivered' },
];

function OrderList() {
  const { active } = useSkill();
  if (!active) return <Text>{orders.length} orders (read "orders" again for the list)</Text>;
  return <Text>{orders.map((o) => `${o.id}: ${o.status}`).join('\n')}</Text>;
}

const session = createSession(
  <Agent>
    <Skill name="orders" description="List orders">
      <OrderList />
    </Skill>
    <Skill name="faq" description="Answer questions" />
  </Agent>,
);

await session.readSkill('orders');
console.log(session.request().context);
await session.readSkill('faq'); // orders stays loaded, but is no longer active
console.log(session.request().context);
