/**
 * The module the CLI loads: `pnpm skilltree chat examples/agent-skills/agent.tsx`.
 * `default` is the agent; `demo` is the conversation played offline when no API key is set.
 */
import { Kitchen } from './src/kitchen.js';

export { demo } from './src/demo.js';
export default Kitchen;
