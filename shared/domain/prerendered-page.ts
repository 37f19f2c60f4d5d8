import { formatSupportEndDate } from './support-date.ts';

/**
 * The website's landing page is rendered to HTML when the site is built, before any install
 * settings exist; the texts that come from them are written as these markers, and the server
 * puts its own settings in their place when it sends the page (fillPrerenderedPage).
 */
export const PRERENDER_MARKERS = {
  supportEmail: '__SHELFWATCH_SUPPORT_EMAIL__',
  supportEndDate: '__SHELFWATCH_SUPPORT_END_DATE__',
  makerName: '__SHELFWATCH_MAKER_NAME__',
  makerUrl: '__SHELFWATCH_MAKER_URL__',
} as const;

/** The install settings a pre-rendered page shows. */
export type PrerenderSettings = {
  supportEmail: string;
  supportEndDate: string;
  maker: { name: string; url: string };
};

/** The settings to pre-render with: every value its marker. */
export const PRERENDER_SETTINGS: PrerenderSettings = {
  supportEmail: PRERENDER_MARKERS.supportEmail,
  // Not a date, so the banner shows it as written (formatSupportEndDate keeps such text).
  supportEndDate: PRERENDER_MARKERS.supportEndDate,
  maker: { name: PRERENDER_MARKERS.makerName, url: PRERENDER_MARKERS.makerUrl },
};

/** Escapes text for HTML element content and quoted attribute values, as React does. */
function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#x27;');
}

/**
 * The pre-rendered page with this install's settings in place of the markers, each escaped,
 * and the end date worded as the banner words it: the same HTML the app renders in the browser,
 * so it takes the page over without changing what is shown.
 */
export function fillPrerenderedPage(html: string, settings: PrerenderSettings): string {
  const values: Record<string, string> = {
    [PRERENDER_MARKERS.supportEmail]: settings.supportEmail,
    [PRERENDER_MARKERS.supportEndDate]: formatSupportEndDate(settings.supportEndDate),
    [PRERENDER_MARKERS.makerName]: settings.maker.name,
    [PRERENDER_MARKERS.makerUrl]: settings.maker.url,
  };
  return html.replace(
    /__SHELFWATCH_(?:SUPPORT_EMAIL|SUPPORT_END_DATE|MAKER_NAME|MAKER_URL)__/g,
    (marker) => escapeHtml(values[marker] ?? marker),
  );
}
