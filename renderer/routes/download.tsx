import Card from 'react-bootstrap/Card';
import { Link } from 'react-router-dom';
import { usePageTitle } from '../components/use-page-title.ts';

/** Where the server publishes the macOS build (electron-builder's dmg). */
export const MAC_DOWNLOAD_URL = '/downloads/Shelfwatch.dmg';

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
        <a className="btn btn-primary btn-lg" href={MAC_DOWNLOAD_URL} download>
          Download for macOS
        </a>
        <p className="small text-body-secondary mt-3 mb-0">
          Requires macOS Ventura 13.0 or later. Want alerts by email or text too? See{' '}
          <Link to="/plans">Pricing</Link>.
        </p>
      </Card.Body>
    </Card>
  );
}
