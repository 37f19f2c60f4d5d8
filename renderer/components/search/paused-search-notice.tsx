import Badge from 'react-bootstrap/Badge';
import { Link } from 'react-router-dom';
import { useMyAccount } from '#renderer/api/account-queries.ts';

/** "Paused: your plan allows N searches. Upgrade to resume." (N from the account's plan). */
export function formatPausedText(searchLimit: number): string {
  return `Paused: your plan allows ${searchLimit} search${searchLimit === 1 ? '' : 'es'}. Upgrade to resume.`;
}

/** The "Paused" label of a search kept over the plan's limit after a downgrade. */
export function PausedBadge() {
  return (
    <Badge bg="secondary" className="flex-shrink-0">
      Paused
    </Badge>
  );
}

/**
 * Why a search is paused and how to resume it; rendered only for paused searches, so the
 * account (for the plan's limit) is only asked for when one is shown.
 */
export function PausedSearchNotice({ className }: { className?: string }) {
  const account = useMyAccount();
  // While the account loads the notice waits rather than show words the spec does not have;
  // only a failed load falls back to a sentence without the number.
  if (account.isPending) return null;
  const limit = account.data?.capabilities.search_limit;
  const text =
    limit === undefined
      ? 'Paused: your plan allows fewer searches. Upgrade to resume.'
      : formatPausedText(limit);
  // "Upgrade" links to the pricing page; the rest of the sentence stays as the spec words it.
  const [before, after] = text.split('Upgrade');
  return (
    <p className={className} role="status" data-testid="paused-notice">
      {before}
      <Link to="/plans">Upgrade</Link>
      {after}
    </p>
  );
}
