import path from 'node:path';
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value === '' ? undefined : value));

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: optionalString,
  SHELFWATCH_DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString,
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5433),
  IDP_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  IDP_ISSUER: optionalString,
  AUTH0_DOMAIN: optionalString,
  AUTH0_AUDIENCE: optionalString,
  AUTH0_CLIENT_ID: optionalString,
  API_AUDIENCE: z.string().default('https://api.shelfwatch.app'),
  SHELFWATCH_DEMO_PASSWORD: optionalString,
  SHELFWATCH_DISABLE_DEMO: booleanFromEnv,
  SUPPORT_EMAIL: z.string().email().default('support@shelfwatch.app'),
  SUPPORT_END_DATE: z.string().default('September 8th, 2025'),
  MAKER_NAME: z.string().default('Lantern Apps'),
  MAKER_URL: z.string().url().default('https://lanternapps.dev'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

/** Runtime configuration of the server, read once from the environment. */
export type AppConfig = {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  embeddedPgPort: number;
  idp:
    | { kind: 'embedded'; port: number; issuer: string; clientId: string }
    | { kind: 'auth0'; issuer: string; clientId: string };
  apiAudience: string;
  demo: { isEnabled: boolean; password: string | undefined };
  supportEmail: string;
  supportEndDate: string;
  maker: { name: string; url: string };
  logLevel: string;
};

/** Client id of the website and app at the embedded provider. */
export const EMBEDDED_CLIENT_ID = 'shelfwatch-web';

/** Reads and validates the environment; throws an Error naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment: ${problems.join('; ')}`);
  }
  const values = parsed.data;
  const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/$/, '');
  const isAuth0 = values.AUTH0_DOMAIN !== undefined;
  const idp: AppConfig['idp'] = isAuth0
    ? {
        kind: 'auth0',
        issuer: normaliseIssuer(values.AUTH0_DOMAIN ?? ''),
        clientId: values.AUTH0_CLIENT_ID ?? '',
      }
    : {
        kind: 'embedded',
        port: values.IDP_PORT,
        issuer: normaliseIssuer(values.IDP_ISSUER ?? `http://localhost:${values.IDP_PORT}`),
        clientId: EMBEDDED_CLIENT_ID,
      };
  return {
    port: values.PORT,
    host: values.HOST,
    publicUrl,
    dataDir: path.resolve(values.SHELFWATCH_DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    embeddedPgPort: values.EMBEDDED_PG_PORT,
    idp,
    apiAudience: values.AUTH0_AUDIENCE ?? values.API_AUDIENCE,
    demo: { isEnabled: !values.SHELFWATCH_DISABLE_DEMO, password: values.SHELFWATCH_DEMO_PASSWORD },
    supportEmail: values.SUPPORT_EMAIL,
    supportEndDate: values.SUPPORT_END_DATE,
    maker: { name: values.MAKER_NAME, url: values.MAKER_URL },
    logLevel: values.LOG_LEVEL,
  };
}

/** Auth0 domains come bare ("tenant.auth0.com"); issuers are URLs with a trailing slash. */
function normaliseIssuer(domainOrUrl: string): string {
  const withScheme = /^https?:\/\//.test(domainOrUrl) ? domainOrUrl : `https://${domainOrUrl}`;
  return withScheme.endsWith('/') ? withScheme : `${withScheme}/`;
}
