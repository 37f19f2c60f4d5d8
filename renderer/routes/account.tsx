import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import PhoneInput, {
  isSupportedCountry as isSupportedPhoneCountry,
} from 'react-phone-number-input';
import 'react-phone-number-input/style.css';
import type { Account } from '#shared/api/account.ts';
import { ERROR_CODES } from '#shared/api/errors.ts';
import { choosePhoneCountry } from '#shared/domain/phone-country.ts';
import { useMyAccount, useSaveAccount } from '../api/account-queries.ts';
import { useStores } from '../api/catalog-queries.ts';
import { useMySearches } from '../api/search-queries.ts';
import { useApi } from '../api/api-client.ts';
import { describeRequestError, readErrorCode } from '../api/api-errors.ts';
import { createPortalSession } from '../api/billing-calls.ts';
import { useAuth } from '../auth/auth-context.tsx';
import { useAppConfig } from '../boot/app-config-context.tsx';
import { AlertChannels } from '#renderer/components/account/alert-channels.tsx';
import { DeleteAccountModal } from '#renderer/components/account/delete-account-modal.tsx';
import { PlanSummary } from '#renderer/components/account/plan-summary.tsx';
import { QuietHoursForm } from '#renderer/components/account/quiet-hours-form.tsx';
import {
  TimeZoneField,
  useDefaultTimeZone,
} from '#renderer/components/account/time-zone-field.tsx';
import { SvgFlag } from '#renderer/components/layout/svg-flag.tsx';
import { usePageTitle } from '#renderer/components/hooks/use-page-title.ts';
import { useHost } from '../host/host-context.tsx';

/** Spec: the red message after a failed save. */
export const ACCOUNT_SAVE_FAILED_TEXT =
  'Failed to save account information. Please check that your phone number is entered correctly.';
/** Said once the account was saved, until the next edit. */
export const ACCOUNT_SAVED_TEXT = 'Account saved.';
/** Shown instead of a silent failure when this install has no payment provider. */
export const BILLING_NOT_CONFIGURED_TEXT =
  "Subscriptions aren't set up on this Shelfwatch installation, so there is no payment information to manage.";

type FormValues = { email: string; phone: string; enableNotifications: boolean };

/** The form's starting values from the loaded account. */
function toFormValues(account: Account | undefined): FormValues {
  return {
    email: account?.email ?? '',
    phone: account?.phone_number ?? '',
    enableNotifications: account?.enable_notifications ?? false,
  };
}

/** /account: contact details, notification switch, logout, the billing portal and deletion. */
export function AccountRoute() {
  usePageTitle('My Account');
  const account = useMyAccount();
  useDefaultTimeZone(account.data);
  const save = useSaveAccount();
  const { logout } = useAuth();
  const { privateApi } = useApi();
  const { isBillingConfigured } = useAppConfig();
  const host = useHost();
  const [values, setValues] = useState<FormValues>(() => toFormValues(account.data));
  const [billingNote, setBillingNote] = useState<string | null>(null);
  const [isOpeningPortal, setIsOpeningPortal] = useState(false);
  const [isDeleteOpen, setIsDeleteOpen] = useState(false);
  const [isSavedShown, setIsSavedShown] = useState(false);

  // The form restarts from the server's values whenever fresh account data arrives.
  useEffect(() => setValues(toFormValues(account.data)), [account.data]);

  const isDisabled = account.isPending || account.isError || save.isPending;
  // A new number is most likely of the country of the store the person watches.
  const searches = useMySearches();
  const stores = useStores();
  const phoneCountry = choosePhoneCountry(searches.data?.searches ?? [], stores.data ?? []);

  // The confirmation speaks of the values saved: the next edit takes it away.
  const edit = (changed: Partial<FormValues>) => {
    setIsSavedShown(false);
    setValues({ ...values, ...changed });
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (account.data === undefined) return;
    setIsSavedShown(false);
    save.mutate(
      {
        email: values.email,
        phone_number: values.phone === '' ? null : values.phone,
        enable_notifications: values.enableNotifications,
      },
      {
        onSuccess: () => setIsSavedShown(true),
        onError: (error) => console.error('Account could not be saved', error),
      },
    );
  };

  const openPortal = async () => {
    if (!isBillingConfigured) {
      setBillingNote(BILLING_NOT_CONFIGURED_TEXT);
      return;
    }
    setIsOpeningPortal(true);
    try {
      const url = await createPortalSession(privateApi);
      if (url === undefined) {
        console.error('Portal session answer had no session_url');
      } else {
        await host.openExternal(url);
      }
    } catch (error) {
      setBillingNote(
        readErrorCode(error) === ERROR_CODES.billingNotConfigured
          ? BILLING_NOT_CONFIGURED_TEXT
          : describeRequestError(
              error,
              "The billing portal couldn't be opened. Please try again later.",
            ),
      );
    } finally {
      setIsOpeningPortal(false);
    }
  };

  return (
    <section className="mx-auto" style={{ maxWidth: 560 }}>
      <h1 className="h2 mb-4">My Account</h1>
      {account.isError ? (
        <p className="text-danger" role="alert">
          {describeRequestError(
            account.error,
            "Your account couldn't be loaded. Please reload the page.",
          )}
        </p>
      ) : null}
      <Form onSubmit={submit} noValidate>
        <Form.Group className="mb-3" controlId="account-email">
          <Form.Label>Email</Form.Label>
          <Form.Control
            type="email"
            placeholder="you@example.com"
            autoComplete="email"
            value={values.email}
            disabled={isDisabled}
            onChange={(event) => edit({ email: event.target.value })}
          />
        </Form.Group>
        <Form.Group className="mb-2">
          <Form.Label htmlFor="account-phone">Phone number</Form.Label>
          <PhoneInput
            // The library reads defaultCountry once: a new key applies the store's country
            // when the searches arrive after the first render (the typed value is kept).
            key={phoneCountry}
            id="account-phone"
            defaultCountry={isSupportedPhoneCountry(phoneCountry) ? phoneCountry : 'US'}
            flagComponent={SvgFlag}
            international={false}
            autoComplete="tel"
            placeholder="(201) 555-0123"
            className="form-control d-flex phone-field"
            value={values.phone === '' ? undefined : values.phone}
            disabled={isDisabled}
            onChange={(phone) => edit({ phone: phone ?? '' })}
          />
        </Form.Group>
        <Form.Text as="p" className="mb-3">
          Your email address and phone number are used to send inventory notifications, as
          configured in each search's settings.
        </Form.Text>
        <Form.Check
          type="switch"
          id="account-enable-notifications"
          className="mb-3"
          label="Enable inventory update notifications"
          checked={values.enableNotifications}
          disabled={isDisabled}
          onChange={(event) => edit({ enableNotifications: event.target.checked })}
        />
        {save.isError ? (
          <p className="text-danger" role="alert">
            {describeRequestError(save.error, ACCOUNT_SAVE_FAILED_TEXT)}
          </p>
        ) : null}
        <div className="d-flex align-items-center gap-3">
          <Button type="submit" variant="primary" disabled={isDisabled}>
            {account.isPending || save.isPending ? 'Loading...' : 'Save account'}
          </Button>
          <span className="text-success small" role="status">
            {isSavedShown && save.isSuccess ? ACCOUNT_SAVED_TEXT : null}
          </span>
        </div>
      </Form>
      <hr className="my-4" />
      <h2 className="h5">Your plan</h2>
      {account.data === undefined ? null : <PlanSummary account={account.data} />}
      <hr className="my-4" />
      <h2 className="h5">Time zone</h2>
      <TimeZoneField account={account.data} />
      <hr className="my-4" />
      <h2 className="h5">Quiet hours</h2>
      <QuietHoursForm saved={account.data?.quiet_hours} />
      <hr className="my-4" />
      <h2 className="h5">Alert channels</h2>
      {account.data === undefined ? null : (
        <AlertChannels isAllowed={account.data.capabilities.web_searches_allowed} />
      )}
      <hr className="my-4" />
      <div className="d-flex flex-column align-items-start gap-2">
        <Button
          variant="link"
          className="p-0"
          disabled={isOpeningPortal}
          onClick={() => void openPortal()}
        >
          Manage subscription and payment link
        </Button>
        {billingNote === null ? null : (
          <p className="small text-body-secondary mb-0" role="status">
            {billingNote}
          </p>
        )}
        <Button
          variant="link"
          className="p-0"
          onClick={() => {
            logout().catch((error: unknown) => console.error('Logout failed', error));
          }}
        >
          Logout
        </Button>
      </div>
      <hr className="my-4" />
      <h2 className="h5">Delete account</h2>
      <p className="small text-body-secondary">
        Removes your account, your searches and your alert settings for good.
      </p>
      <Button
        variant="outline-danger"
        disabled={account.data === undefined}
        onClick={() => setIsDeleteOpen(true)}
      >
        Delete my account
      </Button>
      <DeleteAccountModal
        isOpen={isDeleteOpen}
        hasSubscription={
          isBillingConfigured && account.data?.capabilities.web_searches_allowed === true
        }
        onClose={() => setIsDeleteOpen(false)}
        onDeleted={() => {
          logout().catch((error: unknown) => console.error('Logout failed', error));
        }}
      />
    </section>
  );
}
