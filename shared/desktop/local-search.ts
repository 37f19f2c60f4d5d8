import { z } from 'zod';
import { alertCadenceSchema, maxDistanceSchema } from '#shared/api/searches.ts';

// The macOS app's own data: searches kept on the Mac (no account needed), the app's settings
// and the watch loop's status. The main process stores them (electron-store); the renderer
// sees local searches through the same `Search` shape the API returns, so screens are shared.

/** Searches the app watches without an account (spec: "one free search"). */
export const FREE_LOCAL_SEARCH_LIMIT = 1;

/** Reason code of the refusal of a local search beyond the free limit. */
export const FREE_LIMIT_REASON = 'free_search_limit';

/** Message shown with that refusal. */
export const FREE_LIMIT_MESSAGE =
  'The free app watches one search. Log in to add unlimited searches.';

/** A search kept on this Mac: which models of which product type to watch at which store. */
export const localSearchSchema = z.object({
  id: z.string().uuid(),
  product_type: z.string().min(1).max(64),
  store_id: z.string().min(1).max(64),
  include_nearby_store_results: z.boolean(),
  show_results_only_for_preferred_models: z.boolean(),
  /** Nearby stores farther than this are left out of inventory and alerts; null: no limit. */
  max_distance_miles: maxDistanceSchema,
  /** Part numbers the user prefers; only these raise notifications. */
  preferred_parts: z.array(z.string().min(1).max(32)).max(200),
  /**
   * At most one notification within this many minutes, as the server's cadence (issue 42);
   * null or absent (searches saved before it existed): DEFAULT_ALERT_CADENCE_MINUTES.
   */
  alert_cadence_minutes: alertCadenceSchema.nullable().optional(),
  /** ISO time of creation; the free limit keeps the oldest search. */
  created_at: z.string(),
});
/** A local search as stored. */
export type LocalSearch = z.infer<typeof localSearchSchema>;

/** Shortest check interval the app allows: Apple blocks callers that ask more often. */
export const MIN_CHECK_INTERVAL_MINUTES = 1;
/** Longest check interval offered. */
export const MAX_CHECK_INTERVAL_MINUTES = 60;
/** Spec: "inventory updates every five minutes". */
export const DEFAULT_CHECK_INTERVAL_MINUTES = 5;

/** Clamps a requested interval to whole minutes within the allowed range. */
export function clampCheckIntervalMinutes(minutes: number): number {
  if (!Number.isFinite(minutes)) return DEFAULT_CHECK_INTERVAL_MINUTES;
  return Math.min(
    MAX_CHECK_INTERVAL_MINUTES,
    Math.max(MIN_CHECK_INTERVAL_MINUTES, Math.round(minutes)),
  );
}

/** The app's settings screen. */
export const desktopSettingsSchema = z.object({
  check_interval_minutes: z
    .number()
    .int()
    .min(MIN_CHECK_INTERVAL_MINUTES)
    .max(MAX_CHECK_INTERVAL_MINUTES),
  notifications_enabled: z.boolean(),
  launch_at_login: z.boolean(),
  /** Default "only stores within N miles" for nearby results of searches without their own. */
  default_max_distance_miles: maxDistanceSchema,
  /** macOS: show the app in the Dock; off, it lives in the menu bar only. */
  show_dock_icon: z.boolean(),
});
/** The app's settings. */
export type DesktopSettings = z.infer<typeof desktopSettingsSchema>;

/** Settings of a fresh install. */
export const DEFAULT_DESKTOP_SETTINGS: DesktopSettings = {
  check_interval_minutes: DEFAULT_CHECK_INTERVAL_MINUTES,
  notifications_enabled: true,
  launch_at_login: false,
  default_max_distance_miles: null,
  show_dock_icon: true,
};

/** A change from the settings screen; fields left out keep their value. */
export const desktopSettingsPatchSchema = desktopSettingsSchema.partial().strict();
/** A settings change. */
export type DesktopSettingsPatch = z.infer<typeof desktopSettingsPatchSchema>;

/** Where the local watch loop stands, for the tray, My Searches and the search page. */
export const desktopWatchStatusSchema = z.object({
  state: z.enum(['idle', 'checking', 'paused']),
  /** ISO time of the last finished check (any outcome); null before the first. */
  last_check_at: z.string().nullable(),
  /** ISO time the next check is due; null while paused or with no searches. */
  next_check_at: z.string().nullable(),
  /** True while the latest checks failed (blocked, HTML, malformed, offline). */
  is_failing: z.boolean(),
  /** When the current run of failures started. */
  failing_since: z.string().nullable(),
  /** A readable reason for the failures, e.g. "Apple is refusing requests for a while". */
  failure_message: z.string().nullable(),
  /** Set while every request waits out a block of the upstream host. */
  cool_down_until: z.string().nullable(),
  search_count: z.number().int(),
  /**
   * Why macOS refused the last notification (the app is unsigned, or notifications are off
   * for it in System Settings); null once one shows. Set by the app, not the watch loop.
   */
  notification_problem: z.string().nullable().optional(),
  /** True after a wake until the network is back (checks wait rather than fail). */
  is_waiting_for_network: z.boolean().optional(),
  /** Why a downloaded update cannot be installed, and what to do; set by the app, else null. */
  update_problem: z.string().nullable().optional(),
});
/** The watch loop's status. */
export type DesktopWatchStatus = z.infer<typeof desktopWatchStatusSchema>;

/** A one-off notice the app shows once (e.g. the stored data was unreadable and was reset). */
export const desktopNoticeSchema = z.object({
  id: z.string(),
  level: z.enum(['info', 'warning']),
  message: z.string(),
});
/** A notice for the user. */
export type DesktopNotice = z.infer<typeof desktopNoticeSchema>;

/** Whether the app is signed in to a Shelfwatch account. */
export const desktopAuthStatusSchema = z.object({
  is_signed_in: z.boolean(),
  email: z.string().nullable(),
  /** True while a login in the browser is waiting for the user. */
  is_login_in_flight: z.boolean(),
});
/** The app's login state. */
export type DesktopAuthStatus = z.infer<typeof desktopAuthStatusSchema>;
