export {
  composeLinkEmail,
  createAccountMailer,
  type AccountEmail,
  type AccountMailer,
} from '#server/identity/account-mail.ts';
export {
  Auth0ManagementError,
  createAuth0Management,
  type Auth0Management,
  type Auth0ManagementCredentials,
} from './auth0-management.ts';
export {
  buildSetPasswordUrl,
  checkAccountToken,
  issueAccountToken,
  setPasswordWithToken,
  SET_PASSWORD_PATH,
  type LinkCheck,
  type OneTimeLinkPurpose,
  type UnusableLinkReason,
} from '#server/identity/one-time-links.ts';
export {
  requestPasswordReset,
  RESET_PASSWORD_LINK_TTL_MS,
  type PasswordResetSettings,
} from '#server/identity/password-reset.ts';
export { applyPlanChange, reconcilePausedSearches, type PlanChangeResult } from './plan-change.ts';
export {
  AccountProvisioningError,
  createFinishSetupLink,
  provisionAccount,
  sendFinishSetupEmail,
  type FinishSetupLink,
} from './provision.ts';
export {
  FINISH_SETUP_LINK_TTL_MS,
  readAccountSettings,
  type AccountSettings,
  type LoginDirectory,
} from './settings.ts';
export {
  AccountDeletionError,
  deleteAccount,
  deleteOwnAccount,
  type AccountDeletionDependencies,
} from './delete-account.ts';
export {
  addUser,
  formatUserList,
  listUsers,
  removeUsersByEmail,
  setPlanByEmail,
  type UserListEntry,
} from './user-admin.ts';
