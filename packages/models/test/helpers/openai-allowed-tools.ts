/**
 * OpenAI's `allowed_tools` tool choice, as the test server enforces it. Sources: the function calling
 * guide ("Allowed tools": `tool_choice` of type `allowed_tools` restricts the tools the model may call
 * to a subset of the declared `tools`, which stay as they are so the prompt cache is kept; mode `auto`
 * lets the model pick among them or answer, `required` makes it call one) and the API reference
 * (`ToolChoiceAllowed`: Responses `{ type: 'allowed_tools', mode, tools: [{ type: 'function', name }] }`;
 * Chat Completions `{ type: 'allowed_tools', allowed_tools: { mode, tools: [{ type: 'function',
 * function: { name } }] } }`). The model never produces a call of a tool outside the allowed set
 * (sampling is constrained), so the server withholds such a scripted call instead of refusing it.
 * The refusal texts are this server's (OpenAI's exact wording is not documented).
 */

type Api = 'responses' | 'chat';

/** The names `tool_choice` lets the model call: the allowed list, none for `'none'`, else null (any declared). */
export function allowedNames(toolChoice: any, api: Api): string[] | null {
  if (toolChoice === 'none') return [];
  if (toolChoice?.type !== 'allowed_tools') return null;
  const tools: any[] = (api === 'chat' ? toolChoice.allowed_tools?.tools : toolChoice.tools) ?? [];
  return tools.map((t) => (api === 'chat' ? t?.function?.name : t?.name));
}

/** What an `allowed_tools` tool choice breaks against the declared tool names, or null. */
export function allowedToolsProblem(toolChoice: any, declared: readonly string[], api: Api): string | null {
  if (toolChoice?.type !== 'allowed_tools') return null;
  const where = api === 'chat' ? 'tool_choice.allowed_tools' : 'tool_choice';
  const spec = api === 'chat' ? toolChoice.allowed_tools : toolChoice;
  if (!spec || typeof spec !== 'object') return `Missing required parameter: '${where}'.`;
  if (spec.mode !== 'auto' && spec.mode !== 'required') {
    return `Invalid value: '${spec.mode}'. Supported values are: 'auto' and 'required'. (param '${where}.mode')`;
  }
  if (!Array.isArray(spec.tools) || spec.tools.length === 0) {
    return `Invalid '${where}.tools': expected a non-empty array of tools.`;
  }
  for (const [i, tool] of spec.tools.entries()) {
    const name = api === 'chat' ? tool?.function?.name : tool?.name;
    if (tool?.type !== 'function' || typeof name !== 'string') {
      return `Invalid '${where}.tools[${i}]': each tool needs type 'function' and a name.`;
    }
    if (!declared.includes(name)) {
      return `Invalid '${where}.tools[${i}]': tool '${name}' is not declared in 'tools'. Allowed tools must be declared.`;
    }
  }
  return null;
}
