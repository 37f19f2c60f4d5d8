import type { MouseEvent, ReactNode } from 'react';
import { useAuth } from './auth-context.tsx';

/** The page that starts a login by itself (ForceLoginRoute), returning to `/`. */
export const LOGIN_PATH = '/force_login';

/**
 * Login as a real link to /force_login: on the pre-rendered landing page a click before the
 * scripts have loaded (a loaded machine, a phone on a slow network) still reaches the sign-in
 * page. Once hydrated, a plain click starts the login here without that extra page; a click
 * meant for a new tab or window keeps the browser's own behaviour.
 */
export function LoginLink({ className, children }: { className: string; children: ReactNode }) {
  const { login } = useAuth();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    event.preventDefault();
    login('/').catch((error: unknown) => console.error('Login could not start', error));
  };
  return (
    <a href={LOGIN_PATH} className={className} onClick={onClick}>
      {children}
    </a>
  );
}
