/** The agent the durable engine tests drive: one tool, `charge`, whose runs a test observes through their context. */
import { Agent, type Model, scriptedModel, Text, Tool, type ToolContext } from '../src/index.js';

/**
 * An agent with one tool, `charge` (no input), that hands each run's context to `onCharge` and
 * answers `charged`. With `needsApproval`, each call waits for an approval first.
 */
export function ChargingShop({
  onCharge = () => {},
  needsApproval = false,
}: {
  onCharge?: (ctx: ToolContext) => void;
  needsApproval?: boolean;
}) {
  return (
    <Agent>
      <Text>You charge cards.</Text>
      <Tool
        name="charge"
        description="Charges the card"
        needsApproval={needsApproval}
        run={(_input, ctx) => {
          onCharge(ctx);
          return 'charged';
        }}
      />
    </Agent>
  );
}

/** A model that calls `charge` once (call id `pay-1`), then answers `Done.`. */
export const chargeThenDone = () =>
  scriptedModel([{ toolCalls: [{ id: 'pay-1', name: 'charge', input: {} }] }, { text: 'Done.' }]);

/**
 * A model that calls `charge` first (call id `pay-1`), then answers `Charged.` once the charge's
 * result is in; it notes in `asked` what each call was asked for (`charge` or `answer`).
 */
export function countingChargeModel(asked: string[]): Model {
  return {
    async generate(req) {
      const last = req.messages.at(-1);
      asked.push(last?.role === 'tool' ? 'answer' : 'charge');
      if (last?.role === 'tool') return { text: 'Charged.', toolCalls: [] };
      return { text: '', toolCalls: [{ id: 'pay-1', name: 'charge', input: {} }] };
    },
  };
}

/**
 * A model for every process of a durable test: it notes `step <n>` in `asked` on each call, calls
 * `charge` for the user's message (call id `pay-<n>`), and answers `Done.` once a result is in.
 */
export function steppingShopModel(asked: string[]): () => Model {
  return () => ({
    name: 'shop',
    async generate(request) {
      asked.push(`step ${asked.length + 1}`);
      return request.messages.at(-1)?.role === 'user'
        ? { text: '', toolCalls: [{ id: `pay-${asked.length}`, name: 'charge', input: {} }] }
        : { text: 'Done.', toolCalls: [] };
    },
  });
}

/** The shop of the durable wait tests: each `charge` call waits for an approval; each charge that ran is noted in `ran`. */
export const ApprovalShop = ({ ran }: { ran: string[] }) => (
  <ChargingShop needsApproval onCharge={() => ran.push('charge')} />
);
