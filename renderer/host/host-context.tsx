import { createContext, useContext } from 'react';
import type { HostBridge } from '#shared/bridge.ts';

/** The host the renderer runs in (browser or macOS app). */
export const HostContext = createContext<HostBridge | null>(null);

/** The current host bridge; throws outside the provider (a programming error). */
export function useHost(): HostBridge {
  const host = useContext(HostContext);
  if (host === null) {
    throw new Error('useHost used outside HostContext');
  }
  return host;
}
