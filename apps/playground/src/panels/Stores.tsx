/** Stores: each `createAgentStore` store of the session with its current state, live. */
import { json } from '../format.js';
import { Panel } from './Panel.js';

export function Stores({ stores }: { stores: Record<string, unknown> }) {
  const names = Object.keys(stores).sort();
  return (
    <Panel id="stores" title="Stores" extra={<span className="muted">{names.length}</span>}>
      {names.length === 0 ? (
        <p className="empty">No store is in use yet (stores are created on first use).</p>
      ) : (
        names.map((name) => (
          <div className="store" key={name} data-store={name}>
            <div className="store-name">{name}</div>
            <pre className="schema">{json(stores[name])}</pre>
          </div>
        ))
      )}
    </Panel>
  );
}
