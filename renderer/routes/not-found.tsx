import { NotFoundMessage } from '../components/not-found-message.tsx';
import { usePageTitle } from '../components/use-page-title.ts';

/** Any path the site doesn't have. */
export function NotFoundRoute() {
  usePageTitle('Page not found');
  return <NotFoundMessage />;
}
