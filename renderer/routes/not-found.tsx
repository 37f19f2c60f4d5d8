import { NotFoundMessage } from '#renderer/components/layout/not-found-message.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';

/** Any path the site doesn't have. */
export function NotFoundRoute() {
  usePageTitle('Page not found');
  return <NotFoundMessage />;
}
