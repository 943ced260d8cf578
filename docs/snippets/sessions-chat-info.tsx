import { Agent, createSessions, scriptedModel, Text, Tool, textOf, useChatInfo } from '@skilltree/core';

/** Your app's data: each user's plan and orders. */
const plans = new Map([['ann', 'pro']]);
const orders = new Map([['ann', ['lamp', 'desk']]]);

function Account() {
  const chat = useChatInfo(); // { id, owner } of this chat; null in a createSession session
  return (
    <Text>
      Signed in as {chat?.owner ?? 'a guest'}, in chat {chat?.id ?? 'none'}.
    </Text>
  );
}

const sessions = createSessions(
  // Called when a process mounts the chat: the same id and owner the agent sees inside.
  (id, owner) => {
    console.log(`mounting chat ${id} of ${owner}`);
    return (
      <Agent>
        <Text>Plan: {plans.get(owner ?? '') ?? 'free'}</Text>
        <Account />
        <Tool
          name="my_orders"
          description="The signed-in user's orders"
          run={(_input, ctx) => (orders.get(ctx.chat?.owner ?? '') ?? []).join(', ') || 'no orders'}
        />
      </Agent>
    );
  },
  {
    model: () =>
      scriptedModel([
        (request) => {
          console.log(request.context);
          return { toolCalls: [{ name: 'my_orders' }] };
        },
        (request) => ({ text: `You ordered: ${textOf(request.messages.at(-1)!)}` }),
      ]),
  },
);
console.log((await sessions.send('support-1', 'What did I order?', { owner: 'ann' })).text);
await sessions.close();
