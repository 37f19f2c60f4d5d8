import { formatSupportEndDate } from '#shared/domain/support-date.ts';
import { useAppConfig } from '#renderer/boot/app-config-context.tsx';

/** The red end-of-support banner shown on every page. */
export function SupportBanner() {
  const { supportEndDate, supportEmail } = useAppConfig();
  return (
    <div
      className="bg-danger text-white text-center small py-2 px-3"
      role="region"
      aria-label="Support notice"
    >
      Shelfwatch notice: support for the product ends on {formatSupportEndDate(supportEndDate)}.
      Please contact support at{' '}
      <a className="text-white fw-semibold" href={`mailto:${supportEmail}`}>
        {supportEmail}
      </a>{' '}
      with any questions.
    </div>
  );
}
