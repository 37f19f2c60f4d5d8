import { z } from 'zod';

/**
 * GET /app-config.json: what the website needs at boot that differs per install
 * (login provider, support address, maker). Served by the API so one build fits all.
 */
export const appConfigSchema = z.object({
  auth: z.object({
    domain: z.string(),
    clientId: z.string(),
    audience: z.string(),
  }),
  apiBaseUrl: z.string(),
  supportEmail: z.string(),
  supportEndDate: z.string(),
  maker: z.object({ name: z.string(), url: z.string() }),
  isBillingConfigured: z.boolean(),
  /** Where the macOS app's .dmg is published; null until a build is. */
  macDownloadUrl: z.string().nullable(),
  cookiePrefix: z.string(),
});
/** Install-specific website settings. */
export type AppConfig = z.infer<typeof appConfigSchema>;
