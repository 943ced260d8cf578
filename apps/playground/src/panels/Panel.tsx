import type { ReactNode } from 'react';

/** A titled, scrollable panel of the playground. */
export function Panel({
  id,
  title,
  extra,
  children,
  className,
}: {
  id: string;
  title: string;
  extra?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section className={`panel ${className ?? ''}`} aria-labelledby={`${id}-title`} data-panel={id}>
      <header className="panel-header">
        <h2 id={`${id}-title`}>{title}</h2>
        {extra ? <div className="panel-extra">{extra}</div> : null}
      </header>
      <div className="panel-body">{children}</div>
    </section>
  );
}
