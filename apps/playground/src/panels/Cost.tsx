/**
 * Cost: one row per model call with the usage the provider reported (input, the parts read from
 * and written to the prompt cache, output) and its estimate, priced like the CLI's cost line, with
 * the session's totals. Usage a model estimated instead of reporting (the scripted model's, at 4
 * characters per token) is marked as an estimate.
 */
import { formatCount, formatDollars, percent } from '../format.js';
import type { CostView, Usage } from '../protocol.js';
import { Panel } from './Panel.js';

export interface CostProps {
  cost: CostView;
  /** The model's name, for the hint when no price is known. */
  model: string;
}

function Cells({ usage, cost }: { usage: Usage; cost: number | null }) {
  const input = usage.inputTokens ?? 0;
  const share = (part: number | undefined) =>
    part === undefined || input === 0 ? null : <span className="muted small"> {percent(part, input)}</span>;
  return (
    <>
      <td className="num">{formatCount(usage.inputTokens)}</td>
      <td className="num">
        {formatCount(usage.cacheReadTokens)}
        {share(usage.cacheReadTokens)}
      </td>
      <td className="num">
        {formatCount(usage.cacheWriteTokens)}
        {share(usage.cacheWriteTokens)}
      </td>
      <td className="num">{formatCount(usage.outputTokens)}</td>
      <td className="num">{formatDollars(cost)}</td>
    </>
  );
}

export function Cost({ cost, model }: CostProps) {
  const { steps, total, price, unreported } = cost;
  const extra = (
    <span className="muted" data-price>
      {price ? `priced as ${price.label}` : 'no price'}
    </span>
  );
  return (
    <Panel id="cost" title="Cost" extra={extra}>
      {price === null && steps.length > 0 ? (
        <p className="muted small" role="note">
          No list price for <code>{model}</code>: start <code>skilltree dev</code> with{' '}
          <code>--price &lt;model|input,output[,cacheRead[,cacheWrite]]&gt;</code> (US dollars per million tokens) for
          an estimate.
        </p>
      ) : null}
      {total.usage.estimated ? (
        <p className="muted small" role="note" data-estimated>
          Token counts are estimated from characters (4 per token): the model does not report usage.
        </p>
      ) : null}
      {steps.length === 0 ? (
        <p className="empty">
          {unreported > 0
            ? `The model reported no usage for its ${unreported} calls.`
            : "Each model call's tokens and estimated cost will appear here."}
        </p>
      ) : (
        <table className="table cost">
          <thead>
            <tr>
              <th title="turn.step">step</th>
              <th className="num" title="Every input token of the request, cached or not">
                input
              </th>
              <th className="num" title="Input tokens read from the prompt cache (share of the input)">
                cache read
              </th>
              <th className="num" title="Input tokens written to the prompt cache (share of the input)">
                cache write
              </th>
              <th className="num">output</th>
              <th className="num" title="estimateCost(usage, price), in US dollars">
                estimate
              </th>
            </tr>
          </thead>
          <tbody>
            {steps.map((step) => (
              <tr key={`${step.turn}.${step.step}.${step.at}`} data-cost-step={`${step.turn}.${step.step}`}>
                <td className="num">
                  {step.turn}.{step.step}
                  {step.usage.estimated ? <span title="estimated from characters"> ~</span> : null}
                </td>
                <Cells usage={step.usage} cost={step.cost} />
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr className="cost-total" data-cost-total>
              <th>total</th>
              <Cells usage={total.usage} cost={total.cost} />
            </tr>
          </tfoot>
        </table>
      )}
      {unreported > 0 && steps.length > 0 ? (
        <p className="muted small">{unreported} model calls reported no usage and are not counted.</p>
      ) : null}
    </Panel>
  );
}
