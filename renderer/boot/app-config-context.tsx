import { createContext, useContext } from 'react';
import type { AppConfig } from '#shared/api/app-config.ts';

/** Install settings loaded at boot; every screen below the root can read them. */
export const AppConfigContext = createContext<AppConfig | null>(null);

/** The install settings; throws when used outside the boot provider (a programming error). */
export function useAppConfig(): AppConfig {
  const config = useContext(AppConfigContext);
  if (config === null) {
    throw new Error('useAppConfig used outside AppConfigContext');
  }
  return config;
}
