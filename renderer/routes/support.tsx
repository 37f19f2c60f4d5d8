import faqUrl from '../content/faq.md?url';
import { TextPage } from '#renderer/components/layout/text-page.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';

/** /support: the FAQ. */
export function SupportRoute() {
  usePageTitle('Support');
  return (
    <TextPage
      url={faqUrl}
      heading="Frequently Asked Questions"
      subtitle="If you're having trouble using the product, check out some answers to common questions below."
      failureText="Failed to load FAQ text. Please contact support."
      prompt="Still having trouble? Feel free to reach out to support."
    />
  );
}
