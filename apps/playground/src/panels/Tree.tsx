/**
 * Tree: the host tree — which React component rendered each instruction, text line and tool, with
 * each skill's and tool's `meta` — read from core's view of the session.
 */
import type { SessionView, ViewLine, ViewTool } from '../protocol.js';
import { Meta } from './Meta.js';
import { Panel } from './Panel.js';

function Owner({ name }: { name: string }) {
  return <code className="owner">&lt;{name}&gt;</code>;
}

function Lines({ lines }: { lines: ViewLine[] }) {
  return (
    <>
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: context lines have no identity besides their position
        <li key={i} className={`tree-line tree-${line.kind}`}>
          <span className="kind">{line.kind === 'text' ? 'Text' : 'Instructions'}</span>
          <span className="line">{line.text || '\u00a0'}</span>
          <Owner name={line.owner} />
        </li>
      ))}
    </>
  );
}

function Tools({ tools }: { tools: ViewTool[] }) {
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

export function Tree({ view }: { view: SessionView | null }) {
  if (!view) {
    return (
      <Panel id="tree" title="Tree">
        <p className="empty">The agent is not loaded.</p>
      </Panel>
    );
  }
  const props = Object.entries(view.agent.props);
  const lines = (skill: string | null) => view.sections.find((section) => section.skill === skill)?.lines ?? [];
  // The built-in read tool is skilltree's own: the tree shows what the agent's components render.
  const tools = (skill: string | null) =>
    view.tools.filter((tool) => tool.skill === skill && tool.owner !== 'skilltree');
  return (
    <Panel id="tree" title="Tree">
      {view.problems.length > 0 ? (
        <ul className="error-box" role="alert">
          {view.problems.map((p) => (
            <li key={p.message}>{p.message}</li>
          ))}
        </ul>
      ) : null}
      <ul className="tree">
        <li>
          <span className="node">&lt;Agent{props.map(([k, v]) => ` ${k}={${JSON.stringify(v)}}`).join('')}&gt;</span>
          <ul>
            {view.agent.instructions.map((text, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: instruction blocks have no identity besides their position
              <li key={`i${i}`} className="tree-line tree-instructions">
                <span className="kind">Instructions</span>
                <span className="line">{text}</span>
                <span className="muted small">→ system</span>
              </li>
            ))}
            <Lines lines={lines(null)} />
            <Tools tools={tools(null)} />
            {view.skills.map((skill) => (
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
                    <Lines lines={lines(skill.name)} />
                    <Tools tools={tools(skill.name)} />
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
