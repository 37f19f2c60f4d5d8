import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Plugin } from 'vite';

/** The brand's mark: the site's favicon, the login provider's icon and the web app's icons. */
export const BRAND_ICON_FILE = path.join(import.meta.dirname, 'assets', 'brand-icon.svg');

/** The project files the icons are made from, for the record `npm start` compares. */
export const WEB_APP_ICON_INPUTS = ['assets/brand-icon.svg', 'vite-web-app-icons.ts'];

/** The mark's colour, also the manifest's theme colour and the maskable icons' background. */
const BRAND_BLUE = '#0d6efd';

/**
 * The icons the installable web app names (renderer/public/manifest.webmanifest and the Apple
 * touch icon link of index.html), each at its pixel size.
 * - `any`: the round mark on transparent, as the favicon shows it.
 * - `maskable`: the check on a full blue square; Android crops such icons to its own shape,
 *   so the mark's circle is scaled onto the safe zone (the middle circle of 80% diameter).
 * - Apple touch icon: iOS fills transparency with black and rounds the corners itself, so it
 *   gets the full-square variant too, at the 180 px iPhones use.
 */
export const WEB_APP_ICONS = [
  { fileName: 'icons/icon-192.png', size: 192, variant: 'any' },
  { fileName: 'icons/icon-512.png', size: 512, variant: 'any' },
  { fileName: 'icons/maskable-192.png', size: 192, variant: 'full-bleed' },
  { fileName: 'icons/maskable-512.png', size: 512, variant: 'full-bleed' },
  { fileName: 'apple-touch-icon.png', size: 180, variant: 'full-bleed' },
] as const;

/** The mark as SVG for one variant: as drawn, or its check alone on a full square. */
export function drawWebAppIcon(markSvg: string, variant: 'any' | 'full-bleed'): string {
  if (variant === 'any') return markSvg;
  // The check of the 32-unit mark, taken from it so the two never drift apart.
  const check = /<path[^>]*\/>/.exec(markSvg)?.[0];
  if (check === undefined) throw new Error(`${BRAND_ICON_FILE} has no <path> (the check)`);
  // The mark's circle (radius 15 of 16) scaled by 0.8 about the middle is the safe zone.
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
    `<rect width="32" height="32" fill="${BRAND_BLUE}"/>` +
    `<g transform="translate(16 16) scale(0.8) translate(-16 -16)">${check}</g></svg>`
  );
}

/** Renders SVG markup to a PNG of `size` pixels square (sharp rasterises it with librsvg). */
export async function renderIconPng(svg: string, size: number): Promise<Buffer> {
  return sharp(Buffer.from(svg), { density: Math.ceil((72 * size) / 32) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** Emits the web app's icons into the site, drawn from the brand mark at build time. */
export function webAppIcons(): Plugin {
  return {
    name: 'shelfwatch-web-app-icons',
    apply: 'build',
    async generateBundle() {
      const markSvg = await readFile(BRAND_ICON_FILE, 'utf8');
      for (const icon of WEB_APP_ICONS) {
        this.emitFile({
          type: 'asset',
          fileName: icon.fileName,
          source: await renderIconPng(drawWebAppIcon(markSvg, icon.variant), icon.size),
        });
      }
    },
  };
}
