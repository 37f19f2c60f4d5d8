import Table from 'react-bootstrap/Table';
import type { WatchStatus } from '#shared/api/watch.ts';
import { getCountryDisplayName } from '#shared/catalog/locale.ts';
import { FreshnessChart } from './freshness-chart.tsx';
import { formatAgo, formatWhen } from './status-format.ts';

// Per country: how fresh its checks are (chart and table) and which of Apple's two endpoints
// it is asked on, each figure explained in plain words.

type Country = WatchStatus['countries'][number];

/** Freshness per country: the chart, the figures as a table, and what they mean. */
export function CountryFreshness({ countries, now }: { countries: readonly Country[]; now: Date }) {
  return (
    <section aria-labelledby="status-freshness" className="mb-5">
      <h2 id="status-freshness" className="h4">
        Freshness by country
      </h2>
      <p className="text-body-secondary">
        Shelfwatch checks stores in groups: one request to Apple covers a store and the stores near
        it. Each bar runs from the most recent check of a country’s groups to the oldest, so a short
        bar close to the left means every store there was checked a moment ago. A red bar means some
        groups there are overdue and their alerts may come late.
      </p>
      {countries.length === 0 ? (
        <p>No country is being watched yet: checks start when someone saves a search.</p>
      ) : (
        <>
          <FreshnessChart
            rows={countries.map((country) => ({
              countryCode: country.country_code,
              freshness: country.freshness,
            }))}
            now={now}
          />
          <Table responsive size="sm" className="mt-3" data-testid="country-freshness">
            <caption>Checks per country</caption>
            <thead>
              <tr>
                <th scope="col">Country</th>
                <th scope="col">Store groups</th>
                <th scope="col">Overdue</th>
                <th scope="col">Not checked yet</th>
                <th scope="col">Most recent check</th>
                <th scope="col">Oldest check</th>
              </tr>
            </thead>
            <tbody>
              {countries.map((country) => (
                <tr key={country.country_code}>
                  <th scope="row">{getCountryDisplayName(country.country_code)}</th>
                  <td>{country.freshness.groups}</td>
                  <td>{country.freshness.overdue_groups}</td>
                  <td>{country.freshness.unchecked_groups}</td>
                  <td>{formatAgo(country.freshness.newest_check_at, now)}</td>
                  <td>{formatAgo(country.freshness.oldest_check_at, now)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </section>
  );
}

/** Which endpoint each country is asked on, and why. */
export function CountryEndpoints({ countries }: { countries: readonly Country[] }) {
  if (countries.length === 0) return null;
  return (
    <section aria-labelledby="status-endpoints" className="mb-5">
      <h2 id="status-endpoints" className="h4">
        How Apple is asked
      </h2>
      <p className="text-body-secondary">
        Apple answers stock questions at two addresses (“pickup-message” and the older
        “fulfillment-messages”). Each country uses the one that answers there, and switches when
        Apple stops answering on it. The control part is a model that is almost always in stock: an
        answer where it is missing everywhere is not believed, so a broken answer never makes a
        model look sold out.
      </p>
      <Table responsive size="sm" data-testid="country-endpoints">
        <thead>
          <tr>
            <th scope="col">Country</th>
            <th scope="col">Asked on</th>
            <th scope="col">Why</th>
            <th scope="col">Control part</th>
          </tr>
        </thead>
        <tbody>
          {countries.map((country) => (
            <tr key={country.country_code}>
              <th scope="row">{getCountryDisplayName(country.country_code)}</th>
              <td>
                {country.shape}
                {country.since === null ? null : (
                  <div className="small text-body-secondary">since {formatWhen(country.since)}</div>
                )}
              </td>
              <td>{country.reason}</td>
              <td>{country.control_part ?? 'none yet'}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </section>
  );
}
