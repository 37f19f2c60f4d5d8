import { z } from 'zod';
import { booleanFromEnv, optionalString } from './environment-values.ts';

/** Client id of the website and app at the embedded provider. */
export const EMBEDDED_CLIENT_ID = 'shelfwatch-web';

/** Who signs people in: the embedded provider, or an Auth0 tenant (AUTH0_DOMAIN set). */
export type IdentityProviderSettings =
  | { kind: 'embedded'; port: number; issuer: string; clientId: string }
  | {
      kind: 'auth0';
      issuer: string;
      clientId: string;
      /** The macOS app's native client at the tenant, whose tokens the API also accepts. */
      desktopClientId: string | undefined;
    };

/** Auth0's Management API client (AUTH0_MGMT_*). */
export type Auth0ManagementSettings = {
  domain: string;
  clientId: string;
  clientSecret: string;
  connection: string;
};

/** The demo account of the embedded provider. */
export type DemoSettings = { isEnabled: boolean; password: string | undefined };

/** Everything about signing in that the environment decides. */
export type LoginSettings = {
  idp: IdentityProviderSettings;
  apiAudience: string;
  auth0Management: Auth0ManagementSettings | undefined;
  demo: DemoSettings;
};

/** The login provider's, Auth0's and the demo account's variables. */
export const loginEnvironmentSchema = z.object({
  IDP_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  IDP_ISSUER: optionalString,
  AUTH0_DOMAIN: optionalString,
  AUTH0_AUDIENCE: optionalString,
  AUTH0_CLIENT_ID: optionalString,
  AUTH0_DESKTOP_CLIENT_ID: optionalString,
  AUTH0_MGMT_DOMAIN: optionalString,
  AUTH0_MGMT_CLIENT_ID: optionalString,
  AUTH0_MGMT_CLIENT_SECRET: optionalString,
  AUTH0_MGMT_CONNECTION: z.string().default('Username-Password-Authentication'),
  API_AUDIENCE: z.string().default('https://api.shelfwatch.app'),
  SHELFWATCH_DEMO_PASSWORD: optionalString,
  SHELFWATCH_DISABLE_DEMO: booleanFromEnv,
});

/** The login settings from the validated environment. */
export function readLoginSettings(values: z.output<typeof loginEnvironmentSchema>): LoginSettings {
  const isAuth0 = values.AUTH0_DOMAIN !== undefined;
  const idp: IdentityProviderSettings = isAuth0
    ? {
        kind: 'auth0',
        issuer: normaliseIssuer(values.AUTH0_DOMAIN ?? ''),
        clientId: values.AUTH0_CLIENT_ID ?? '',
        desktopClientId: values.AUTH0_DESKTOP_CLIENT_ID,
      }
    : {
        kind: 'embedded',
        port: values.IDP_PORT,
        issuer: normaliseIssuer(values.IDP_ISSUER ?? `http://localhost:${values.IDP_PORT}`),
        clientId: EMBEDDED_CLIENT_ID,
      };
  return {
    idp,
    apiAudience: values.AUTH0_AUDIENCE ?? values.API_AUDIENCE,
    auth0Management:
      isAuth0 &&
      values.AUTH0_MGMT_DOMAIN !== undefined &&
      values.AUTH0_MGMT_CLIENT_ID !== undefined &&
      values.AUTH0_MGMT_CLIENT_SECRET !== undefined
        ? {
            domain: values.AUTH0_MGMT_DOMAIN,
            clientId: values.AUTH0_MGMT_CLIENT_ID,
            clientSecret: values.AUTH0_MGMT_CLIENT_SECRET,
            connection: values.AUTH0_MGMT_CONNECTION,
          }
        : undefined,
    demo: { isEnabled: !values.SHELFWATCH_DISABLE_DEMO, password: values.SHELFWATCH_DEMO_PASSWORD },
  };
}

/** Auth0 domains come bare ("tenant.auth0.com"); issuers are URLs with a trailing slash. */
function normaliseIssuer(domainOrUrl: string): string {
  const withScheme = /^https?:\/\//.test(domainOrUrl) ? domainOrUrl : `https://${domainOrUrl}`;
  return withScheme.endsWith('/') ? withScheme : `${withScheme}/`;
}
