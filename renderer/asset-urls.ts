// Images live in the repository's assets/ folder; this one module imports them so screens
// don't reach outside renderer/ themselves. Small SVGs are inlined by the build.
import displayUrl from '../assets/icons/display.svg?url';
import earbudsUrl from '../assets/icons/earbuds.svg?url';
import headphonesUrl from '../assets/icons/headphones.svg?url';
import laptopUrl from '../assets/icons/laptop.svg?url';
import miniDesktopUrl from '../assets/icons/mini-desktop.svg?url';
import pencilAdapterUrl from '../assets/icons/pencil-adapter.svg?url';
import phoneClassicUrl from '../assets/icons/phone-classic.svg?url';
import phoneFoldableUrl from '../assets/icons/phone-foldable.svg?url';
import phoneModernUrl from '../assets/icons/phone-modern.svg?url';
import smartSpeakerUrl from '../assets/icons/smart-speaker.svg?url';
import studioDesktopUrl from '../assets/icons/studio-desktop.svg?url';
import tabletUrl from '../assets/icons/tablet.svg?url';
import watchUrl from '../assets/icons/watch.svg?url';
import heroUrl from '../assets/hero.svg?url';
import type { ProductFamily } from '#shared/catalog/types.ts';

/** The landing page's hero illustration. */
export const HERO_IMAGE_URL: string = heroUrl;

/** One drawing per product family (spec: product icons). */
export const FAMILY_ICON_URLS: Readonly<Record<ProductFamily, string>> = {
  earbuds: earbudsUrl,
  headphones: headphonesUrl,
  watch: watchUrl,
  tablet: tabletUrl,
  'phone-classic': phoneClassicUrl,
  'phone-modern': phoneModernUrl,
  'phone-foldable': phoneFoldableUrl,
  laptop: laptopUrl,
  'studio-desktop': studioDesktopUrl,
  'mini-desktop': miniDesktopUrl,
  display: displayUrl,
  'pencil-adapter': pencilAdapterUrl,
  'smart-speaker': smartSpeakerUrl,
};
