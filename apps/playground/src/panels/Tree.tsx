/**
 * Tree: the host tree — which React component rendered each instruction, text line and tool, with
 * each skill's and tool's `meta`.
 */
import type { LineView, ToolView, TreeView } from '../protocol.js';
import { Meta } from './Meta.js';
import { Panel } from './Panel.js';

function Owner({ name }: { name: string }) {
  return <code className="owner">&lt;{name}&gt;</code>;
}

function Lines({ lines }: { lines: LineView[] }) {
  return (
    <>
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: context lines have no identity besides their position
        <li key={i} className={`tree-line tree-${line.kind}`}>
          <span className="kind">{line.kind === 'text' ? 'Text' : 'Instructions'}</span>
          <span className="line">{line.line || '\u00a0'}</span>
          <Owner name={line.owner} />
        </li>
      ))}
    </>
  );
}

function Tools({ tools }: { tools: ToolView[] }) {
  return (
    <>
      {tools.map((tool) => (
        <li key={tool.name} className="tree-tool" data-tree-tool={tool.name}>
          <span className="kind">Tool</span>
          <span className="line">
            <code>{tool.name}</code> <span className="muted">{tool.description}</span>
            <Meta meta={tool.meta} label={`meta of ${tool.name}`} />
          </span>
          <Owner name={tool.owner} />
        </li>
      ))}
    </>
  );
}

export function Tree({ tree }: { tree: TreeView | null }) {
  if (!tree) {
    return (
      <Panel id="tree" title="Tree">
        <p className="empty">The agent is not loaded.</p>
      </Panel>
    );
  }
  const props = Object.entries(tree.agent.props);
  return (
    <Panel id="tree" title="Tree">
      {tree.problems.length > 0 ? (
        <ul className="error-box" role="alert">
          {tree.problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      <ul className="tree">
        <li>
          <span className="node">&lt;Agent{props.map(([k, v]) => ` ${k}={${JSON.stringify(v)}}`).join('')}&gt;</span>
          <ul>
            {tree.agent.instructions.map((text, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: instruction blocks have no identity besides their position
              <li key={`i${i}`} className="tree-line tree-instructions">
                <span className="kind">Instructions</span>
                <span className="line">{text}</span>
                <span className="muted small">→ system</span>
              </li>
            ))}
            <Lines lines={tree.agent.lines} />
            <Tools tools={tree.agent.tools} />
            {tree.skills.map((skill) => (
              <li key={skill.name} data-tree-skill={skill.name}>
                <span className="node">
                  &lt;Skill name="{skill.name}"&gt; <span className={`badge badge-${skill.state}`}>{skill.state}</span>{' '}
                  <Owner name={skill.owner} />
                </span>
                <Meta meta={skill.meta} label={`meta of ${skill.name}`} />
                {skill.state === 'unloaded' ? (
                  <div className="muted small indent">children not mounted</div>
                ) : (
                  <ul>
                    <Lines lines={skill.lines} />
                    <Tools tools={skill.tools} />
                  </ul>
                )}
              </li>
            ))}
          </ul>
        </li>
      </ul>
    </Panel>
  );
}
