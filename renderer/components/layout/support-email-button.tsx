import { useAppConfig } from '#renderer/boot/app-config-context.tsx';

/** A button that opens a mail to the support address. */
export function SupportEmailButton() {
  const { supportEmail } = useAppConfig();
  return (
    <a className="btn btn-outline-primary" href={`mailto:${supportEmail}`}>
      Email {supportEmail}
    </a>
  );
}
