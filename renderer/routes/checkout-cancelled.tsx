import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';

/** /checkout_cancelled: the spec allows only this one line. */
export function CheckoutCancelledRoute() {
  usePageTitle('Checkout cancelled');
  return <h1 className="h4 text-center py-5">Checkout failed...</h1>;
}
