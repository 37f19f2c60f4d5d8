import { Link } from 'react-router-dom';
import { LoginLink } from '../auth/login-link.tsx';
import { HERO_IMAGE_URL } from '../asset-urls.ts';
import { ExampleInventory } from '#renderer/components/search/example-inventory.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';

/** The signed-out home page. */
export function LandingScreen() {
  usePageTitle('Apple Store stock alerts');
  return (
    <>
      <section className="row align-items-center g-4 py-3">
        <div className="col-lg-6">
          <h1 className="display-5 fw-bold">Stop waiting weeks for Apple products to ship.</h1>
          <p className="lead">
            Shelfwatch watches Apple Store pickup stock and tells you the moment the model you want
            is available at your store, or one nearby.
          </p>
          <div className="d-flex flex-wrap gap-2">
            <button type="button" className="btn btn-primary btn-lg" disabled>
              Sign up
            </button>
            <LoginLink className="btn btn-outline-primary btn-lg">Login</LoginLink>
            <Link to="/download" className="btn btn-outline-secondary btn-lg">
              Download for macOS
            </Link>
          </div>
        </div>
        <div className="col-lg-6 text-center">
          <img
            src={HERO_IMAGE_URL}
            alt="A phone showing an in-stock alert beside a store on a map"
            className="img-fluid"
            width={480}
            height={360}
            fetchPriority="high"
          />
        </div>
      </section>
      <section className="py-4" aria-labelledby="example-inventory-heading">
        <h2 id="example-inventory-heading" className="h3">
          What's in stock right now
        </h2>
        <p className="text-body-secondary">
          A sample of what Shelfwatch is seeing at Apple Stores.
        </p>
        <ExampleInventory />
      </section>
    </>
  );
}
