import type { FlagProps } from 'react-phone-number-input';

// The 3x2 SVG flags react-phone-number-input draws (its country-flag-icons dependency), each
// emitted as its own file of this site: the account chunk carries only this map of URLs, the
// browser fetches just the flag on screen, and nothing comes from the library's default CDN
// (blocked by our CSP, and unreachable offline in the macOS app).
const FLAG_FILES = import.meta.glob<string>('./*.svg', {
  base: '../../../node_modules/country-flag-icons/3x2/',
  query: '?no-inline',
  import: 'default',
  eager: true,
});

const FLAG_URLS: ReadonlyMap<string, string> = new Map(
  Object.entries(FLAG_FILES).map(([file, url]) => [
    file.slice(file.lastIndexOf('/') + 1, -'.svg'.length),
    url,
  ]),
);

/** URL of a country's bundled SVG flag ("US" -> /assets/US-….svg); undefined when none ships. */
export function getFlagUrl(country: string): string | undefined {
  return FLAG_URLS.get(country.toUpperCase());
}

/**
 * The phone field's country flag as an SVG image, so it draws the same everywhere (emoji flags
 * are two empty boxes on Windows and on Linux without an emoji font).
 */
export function SvgFlag({ country, countryName, className }: FlagProps & { className?: string }) {
  const url = getFlagUrl(country);
  if (url === undefined) {
    return (
      <span className={`${className ?? ''} svg-flag-missing`} role="img" aria-label={countryName}>
        {country}
      </span>
    );
  }
  return <img className={className} src={url} alt={countryName} />;
}
