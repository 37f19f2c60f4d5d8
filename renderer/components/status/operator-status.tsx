import Table from 'react-bootstrap/Table';
import type { OperatorWatchStatus } from '#shared/api/watch.ts';
import { formatAgo, formatWhen } from './status-format.ts';

// What only the operator's view of /v2/status carries: each egress address with its budget
// and cool-down, each upstream host's health and the workers' budget. Rendered only when the
// server sent that view; the public view has none of these keys.

/** The operator's sections. */
export function OperatorStatus({ status, now }: { status: OperatorWatchStatus; now: Date }) {
  return (
    <section aria-labelledby="status-operator" className="mb-5" data-testid="operator-status">
      <h2 id="status-operator" className="h4">
        Addresses and budget (operator)
      </h2>
      <p className="text-body-secondary">
        Each address is one way out to Apple with its own allowance: about one request a minute and
        short bursts. After Apple blocks one it cools down, longer each time in a row, and the
        others carry its share.
      </p>
      {status.freshness === null ? null : (
        <p>
          {status.freshness.workers} {status.freshness.workers === 1 ? 'worker' : 'workers'} share{' '}
          {status.freshness.budget_per_minute} requests a minute.
        </p>
      )}
      <Table responsive size="sm" data-testid="operator-addresses">
        <caption>Egress addresses</caption>
        <thead>
          <tr>
            <th scope="col">Address</th>
            <th scope="col">Requests left</th>
            <th scope="col">Rate</th>
            <th scope="col">State</th>
            <th scope="col">Last answer</th>
          </tr>
        </thead>
        <tbody>
          {status.addresses.map((address) => (
            <tr key={address.label}>
              <th scope="row">
                {address.label}
                {address.is_live ? null : (
                  <div className="small text-body-secondary">not in use</div>
                )}
              </th>
              <td>
                {address.tokens} of {address.burst}
              </td>
              <td>{address.rate_per_minute} a minute</td>
              <td>
                {address.is_cooling_down && address.cool_down_until !== null
                  ? `cooling down until ${formatWhen(address.cool_down_until)} (${address.consecutive_blocks} blocks in a row)`
                  : 'ready'}
              </td>
              <td>{formatAgo(address.last_success_at, now)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <Table responsive size="sm" data-testid="operator-hosts">
        <caption>Apple hosts</caption>
        <thead>
          <tr>
            <th scope="col">Host</th>
            <th scope="col">Requests (15 min)</th>
            <th scope="col">Failing</th>
            <th scope="col">Last failure</th>
          </tr>
        </thead>
        <tbody>
          {status.hosts.map((host) => (
            <tr key={host.host}>
              <th scope="row">{host.host}</th>
              <td>{host.requests_last_15_minutes}</td>
              <td>{Math.round(host.error_rate * 100)} %</td>
              <td>
                {host.last_failure_at === null
                  ? 'none'
                  : `${formatAgo(host.last_failure_at, now)} (${host.last_failure_kind ?? 'unknown'})`}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  );
}
