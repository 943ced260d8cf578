import { createContext, type ReactNode, useContext } from 'react';
import type { Sandbox } from './sandbox.js';

const SandboxContext = createContext<Sandbox | null>(null);

/** Gives every skill below it the sandbox its tools work in. */
export function SandboxProvider({ sandbox, children }: { sandbox: Sandbox; children?: ReactNode }) {
  return <SandboxContext.Provider value={sandbox}>{children}</SandboxContext.Provider>;
}

export function useSandbox(): Sandbox {
  const sandbox = useContext(SandboxContext);
  if (!sandbox) throw new Error('useSandbox() needs a <SandboxProvider> above it.');
  return sandbox;
}
