import { useEffect, useState } from 'react';
import Card from 'react-bootstrap/Card';
import { useSearchParams } from 'react-router-dom';
import type { PostCheckoutResponse } from '#shared/api/billing.ts';
import { useApi } from '../api/api-client.ts';
import { postCheckout } from '../api/billing-calls.ts';
import { useAuth } from '../auth/auth-context.tsx';
import { SpinnerScreen } from '#renderer/components/layout/spinner-screen.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';

/** Logged when ACCOUNT_CREATED arrives without the address the finish-setup mail went to. */
export const INVALID_ACCOUNT_CREATED_TEXT = 'invalid server response for ACCOUNT_CREATED event';

// One post_checkout call per session id: strict mode runs effects twice.
const pendingCheckouts = new Map<string, Promise<PostCheckoutResponse>>();

/** What to do with a post-checkout answer (spec section 4). */
export function decideCheckoutStep(
  response: PostCheckoutResponse,
): { kind: 'finish-setup'; email: string } | { kind: 'login' } | { kind: 'logout' } {
  if (response.action === 'ACCOUNT_CREATED') {
    if (response.user_email === undefined || response.user_email === '') {
      console.error(INVALID_ACCOUNT_CREATED_TEXT);
      return { kind: 'logout' };
    }
    return { kind: 'finish-setup', email: response.user_email };
  }
  return response.action === 'SIGN_IN' ? { kind: 'login' } : { kind: 'logout' };
}

/** /checkout_complete?session_id=...: asks the server what checkout did and acts on it. */
export function CheckoutCompleteRoute() {
  usePageTitle('Checkout complete');
  const [searchParams] = useSearchParams();
  const sessionId = searchParams.get('session_id') ?? '';
  const { publicApi } = useApi();
  const { login, logout } = useAuth();
  const [finishEmail, setFinishEmail] = useState<string | null>(null);

  useEffect(() => {
    const leave = () => logout().catch((error: unknown) => console.error('Logout failed', error));
    if (sessionId === '') {
      console.error('checkout_complete opened without a session_id');
      void leave();
      return;
    }
    let pending = pendingCheckouts.get(sessionId);
    if (pending === undefined) {
      pending = postCheckout(publicApi, sessionId);
      pendingCheckouts.set(sessionId, pending);
    }
    pending.then(
      (response) => {
        const step = decideCheckoutStep(response);
        if (step.kind === 'finish-setup') {
          setFinishEmail(step.email);
        } else if (step.kind === 'login') {
          login('/account').catch((error: unknown) =>
            console.error('Login could not start', error),
          );
        } else {
          void leave();
        }
      },
      (error: unknown) => {
        console.error('Post-checkout request failed', error);
        void leave();
      },
    );
  }, [sessionId, publicApi, login, logout]);

  if (finishEmail === null) {
    return <SpinnerScreen label="Finishing checkout..." />;
  }
  return (
    <Card className="mx-auto my-4" style={{ maxWidth: 560 }}>
      <Card.Body>
        <Card.Title as="h1" className="h4">
          Finish setting up your Shelfwatch account
        </Card.Title>
        <Card.Text>
          Thanks for subscribing! We sent an email to <strong>{finishEmail}</strong> with a link to
          finish setting up your account. Check your inbox (and your spam folder) and follow the
          link to choose a password.
        </Card.Text>
      </Card.Body>
    </Card>
  );
}
