/** The agent the durable engine tests drive: one tool, `charge`, whose runs a test observes through their context. */
import { Agent, Text, Tool, type ToolContext } from '../src/index.js';

/** An agent with one tool, `charge` (no input), that hands each run's context to `onCharge` and answers `charged`. */
export function ChargingShop({ onCharge }: { onCharge: (ctx: ToolContext) => void }) {
  return (
    <Agent>
      <Text>You charge cards.</Text>
      <Tool
        name="charge"
        description="Charges the card"
        run={(_input, ctx) => {
          onCharge(ctx);
          return 'charged';
        }}
      />
    </Agent>
  );
}
