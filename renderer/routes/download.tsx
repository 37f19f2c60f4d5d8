import Card from 'react-bootstrap/Card';
import { Link } from 'react-router-dom';
import { useAppConfig } from '../boot/app-config-context.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';

const FEATURES = [
  'Free to download',
  'One free search, no account needed',
  'Unlimited searches after you log in',
  'Notifications right on your Mac',
  'Inventory updates every five minutes',
];

/** /download: the macOS app. */
export function DownloadRoute() {
  usePageTitle('Download for macOS');
  const { macDownloadUrl } = useAppConfig();
  return (
    <Card className="mx-auto" style={{ maxWidth: 700 }}>
      <Card.Body className="p-4">
        <h1 className="h3">Shelfwatch for macOS</h1>
        <p className="text-body-secondary">
          Keep Shelfwatch running on your Mac and hear about stock the moment it lands at a store
          near you.
        </p>
        <ul>
          {FEATURES.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
        {macDownloadUrl === null ? (
          <>
            <button type="button" className="btn btn-primary btn-lg" disabled>
              Download for macOS
            </button>
            <p className="mt-2 mb-0" role="status">
              The macOS app is not published on this site yet. The website works in any browser in
              the meantime. Releases are one universal app for Apple silicon and Intel Macs, named{' '}
              <code>Shelfwatch-&lt;version&gt;-universal.dmg</code>.
            </p>
          </>
        ) : (
          <a className="btn btn-primary btn-lg" href={macDownloadUrl} download>
            Download for macOS
          </a>
        )}
        <p className="small text-body-secondary mt-3 mb-0">
          Requires macOS Ventura 13.0 or later. Want alerts by email or text too? See{' '}
          <Link to="/plans">Pricing</Link>.
        </p>
      </Card.Body>
    </Card>
  );
}
