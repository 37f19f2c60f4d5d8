import { Link } from 'react-router-dom';
import { useAppConfig } from '#renderer/boot/app-config-context.tsx';

/** Footer: copyright with the maker's link, support address and the legal pages. */
export function SiteFooter() {
  const { maker, supportEmail } = useAppConfig();
  return (
    <footer className="border-top mt-5 py-4 small text-body-secondary">
      {/* The links get their own row: beside the copyright line one of them ended up alone on a
          second line, and no link ever breaks inside. */}
      <div className="container d-flex flex-column row-gap-2">
        <p className="mb-0">
          © 2024{' '}
          <a href={maker.url} className="link-secondary" rel="noopener">
            {maker.name}
          </a>
          . Shelfwatch is an independent product and is not affiliated with Apple Inc.
        </p>
        <nav
          aria-label="Legal and support"
          className="site-footer-links d-flex flex-wrap column-gap-3 row-gap-1"
        >
          <a href={`mailto:${supportEmail}`} className="link-secondary">
            {supportEmail}
          </a>
          <Link to="/status" className="link-secondary">
            Service status
          </Link>
          <Link to="/tos" className="link-secondary">
            Terms of Service
          </Link>
          <Link to="/privacy-policy" className="link-secondary">
            Privacy Policy
          </Link>
          <Link to="/refund-policy" className="link-secondary">
            Refund Policy
          </Link>
        </nav>
      </div>
    </footer>
  );
}
