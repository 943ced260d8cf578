/**
 * The kitchen assistant: three Agent Skills folders from `skills/` and one skill whose tools come
 * from an MCP server (`mcp/units-server.mjs`, started when the skill loads, ended when it unloads).
 */
import { fileURLToPath } from 'node:url';
import { loadSkillFolders } from '@skilltree/agent-skills';
import { Agent, Instructions, Skill } from '@skilltree/core';
import { McpTools } from '@skilltree/mcp';

/** The folder that holds the Agent Skills, one sub-folder (with its `SKILL.md`) per skill. */
export const SKILLS_DIR = fileURLToPath(new URL('../skills', import.meta.url));

/** The MCP server, plain JavaScript, so Node runs it without a build. */
export const UNITS_SERVER = fileURLToPath(new URL('../mcp/units-server.mjs', import.meta.url));

/**
 * The agent. Its catalog lists the three folder skills (`food-safety`, `meal-planning`,
 * `recipe-scaling`, from their frontmatter) and `units`; reading `units` spawns the MCP server
 * with this process's Node and offers its tools as `units_convert` and `units_list_units`. At most
 * three skills stay loaded (core's default): a fourth read unloads the least recently read, and
 * when that is `units` the server process exits.
 */
export function Kitchen() {
  return (
    <Agent>
      <Instructions>
        You are a kitchen assistant. Answer from your skills' files rather than from memory, and quote figures with
        their units.
      </Instructions>
      {loadSkillFolders(SKILLS_DIR)}
      <Skill
        name="units"
        description="Convert kitchen units exactly: grams, ounces, cups, tablespoons, millilitres, °F and °C."
      >
        <Instructions>Use units_convert for every conversion; never convert in your head.</Instructions>
        <McpTools name="units" command={process.execPath} args={[UNITS_SERVER]} prefix="units_" />
      </Skill>
    </Agent>
  );
}
