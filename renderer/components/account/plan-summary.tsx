import { Link } from 'react-router-dom';
import type { Account } from '#shared/api/account.ts';
import { formatSearchCount } from '#shared/domain/price-format.ts';
import { getPlan } from '#shared/domain/plans.ts';

/** The limits of the account's plan in words, from the server's capabilities where it says. */
export function describePlanLimits(account: Pick<Account, 'plan' | 'capabilities'>): string[] {
  const plan = getPlan(account.plan);
  const { capabilities } = account;
  return [
    capabilities.web_searches_allowed
      ? `Up to ${formatSearchCount(capabilities.search_limit)} on the website`
      : 'No searches on the website (the Shelfwatch app for Mac has one free search)',
    plan.features.emailNotifications ? 'Email alerts' : 'No email alerts',
    capabilities.text_notifications_allowed ? 'Text alerts' : 'No text alerts',
  ];
}

/** My Account: which plan the user is on and what it allows, with a way to compare plans. */
export function PlanSummary({ account }: { account: Pick<Account, 'plan' | 'capabilities'> }) {
  const plan = getPlan(account.plan);
  return (
    <div data-testid="plan-summary">
      <p className="mb-1">
        You're on the <strong>{plan.title}</strong> plan.
      </p>
      <ul className="small mb-2">
        {describePlanLimits(account).map((limit) => (
          <li key={limit}>{limit}</li>
        ))}
      </ul>
      <Link to="/plans" className="small">
        Compare plans
      </Link>
    </div>
  );
}
