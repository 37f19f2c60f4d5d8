import type { FlagProps } from 'react-phone-number-input';

/**
 * A country's flag as an emoji built from its two letters. The phone field's default flags
 * are images on a third-party CDN (blocked by our CSP and useless offline); bundling its SVG
 * set would add ~100 KB, so the system's emoji font draws them instead.
 */
export function EmojiFlag({ country, countryName }: FlagProps) {
  const flag = String.fromCodePoint(
    ...[...country.toUpperCase()].map((letter) => 0x1f1a5 + letter.charCodeAt(0)),
  );
  return (
    <span role="img" aria-label={countryName} className="emoji-flag">
      {flag}
    </span>
  );
}
