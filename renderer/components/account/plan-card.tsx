import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router-dom';
import { describePlanPrice, formatSearchCount } from '#shared/domain/price-format.ts';
import type { Plan } from '#shared/domain/plans.ts';

/** One plan on the pricing page; paid plans get a checkout button. */
export function PlanCard({
  plan,
  isBilledAnnually,
  isCheckoutEnabled,
  isCheckoutBusy,
  onCheckout,
}: {
  plan: Plan;
  isBilledAnnually: boolean;
  isCheckoutEnabled: boolean;
  isCheckoutBusy: boolean;
  onCheckout: (plan: Plan) => void;
}) {
  const price = describePlanPrice(plan, isBilledAnnually);
  const features: [string, boolean][] = [
    [formatSearchCount(plan.searches), true],
    ['Stock tracking', plan.features.tracking],
    ['No ads', plan.features.noAds],
    ['Email notifications', plan.features.emailNotifications],
    ['Text notifications', plan.features.textNotifications],
  ];
  return (
    <Card className="h-100 text-center" data-testid={`plan-${plan.code}`}>
      <Card.Header as="h2" className="h5 py-3">
        {plan.title}
      </Card.Header>
      <Card.Body className="d-flex flex-column">
        <div className="mb-3">
          <p className="display-6 mb-0">
            {price.perMonth}
            {price.perMonth === 'Free' ? null : (
              <small className="fs-6 text-body-secondary"> / month</small>
            )}
          </p>
          <p className="small text-body-secondary mb-0">
            {price.billedNote ?? 'for the macOS app'}
          </p>
          {/* No placeholder line: an empty one left a gap on the free card. */}
          {price.savingsNote === null ? null : (
            <p className="small fw-semibold text-success mt-1 mb-0">{price.savingsNote}</p>
          )}
        </div>
        <ul className="list-unstyled text-start mx-auto mb-4">
          {features.map(([label, isIncluded]) => (
            <li
              key={label}
              className={isIncluded ? '' : 'text-body-secondary text-decoration-line-through'}
            >
              <span aria-hidden="true">{isIncluded ? '✓ ' : '✕ '}</span>
              <span className="visually-hidden">
                {isIncluded ? 'Included: ' : 'Not included: '}
              </span>
              {label}
            </li>
          ))}
        </ul>
        <div className="mt-auto">
          {plan.lookupKeys === null ? (
            <Link to="/download" className="btn btn-outline-primary w-100">
              Download for macOS
            </Link>
          ) : (
            <Button
              variant="primary"
              className="w-100"
              disabled={!isCheckoutEnabled || isCheckoutBusy}
              onClick={() => onCheckout(plan)}
            >
              {isCheckoutBusy ? 'Redirecting...' : `Get ${plan.title}`}
            </Button>
          )}
        </div>
      </Card.Body>
    </Card>
  );
}
