/**
 * The module the CLI loads: `pnpm skilltree chat examples/support-desk/agent.tsx`.
 * `default` is the agent; `demo` is the conversation played offline when no API key is set.
 */
import { SupportDesk } from './src/support-desk.js';

export { demo } from './src/demo.js';
export default SupportDesk;
