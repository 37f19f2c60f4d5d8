import privacyUrl from '../content/privacy.md?url';
import refundUrl from '../content/refund.md?url';
import webhooksUrl from '../content/webhooks.md?url';
import termsUrl from '../content/terms.md?url';
import { TextPage } from '#renderer/components/layout/text-page.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';

const FAILURE_TEXT = 'Failed to load text. Please contact support.';
const PROMPT = 'Have questions? Feel free to reach out to support.';

// The spec's original reused "Terms of Service" as the hidden heading of all three pages;
// screen readers announce that heading, so each page names itself correctly instead.

/** /tos */
export function TermsRoute() {
  usePageTitle('Terms of Service');
  return (
    <TextPage
      url={termsUrl}
      heading="Terms of Service"
      isHeadingHidden
      failureText={FAILURE_TEXT}
      prompt={PROMPT}
    />
  );
}

/** /privacy-policy */
export function PrivacyRoute() {
  usePageTitle('Privacy Policy');
  return (
    <TextPage
      url={privacyUrl}
      heading="Privacy Policy"
      isHeadingHidden
      failureText={FAILURE_TEXT}
      prompt={PROMPT}
    />
  );
}

/** /refund-policy */
export function RefundRoute() {
  usePageTitle('Refund Policy');
  return (
    <TextPage
      url={refundUrl}
      heading="Refund Policy"
      isHeadingHidden
      failureText={FAILURE_TEXT}
      prompt={PROMPT}
    />
  );
}

/** /docs/webhooks: the webhook channel's body and signature, linked from My Account. */
export function WebhookDocsRoute() {
  usePageTitle('Webhook alerts');
  return (
    <TextPage
      url={webhooksUrl}
      heading="Webhook alerts"
      failureText={FAILURE_TEXT}
      prompt={PROMPT}
    />
  );
}
