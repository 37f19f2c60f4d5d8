// Draws the macOS app's icons from the project's own artwork: the 1024 px app icon
// (build/icon.png; electron-builder makes the .icns on a Mac) and the menu-bar template
// images (assets/tray/trayTemplate.png and @2x: black on transparent, macOS tints them).
// Rerun with `npx tsx build/make-icons.ts` after changing the drawings below.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { launchBrowser } from '#tests/helpers/browser.ts';

const rootDir = path.resolve(import.meta.dirname, '..');

/** A shelf with a tag: the Shelfwatch mark, drawn on a 64-unit grid. */
function drawMark(color: string): string {
  return `
    <rect x="10" y="40" width="44" height="5" rx="2" fill="${color}"/>
    <rect x="14" y="18" width="13" height="22" rx="3" fill="${color}"/>
    <rect x="31" y="24" width="10" height="16" rx="3" fill="${color}"/>
    <circle cx="48" cy="20" r="7" fill="none" stroke="${color}" stroke-width="4"/>
    <rect x="12" y="45" width="4" height="8" fill="${color}"/>
    <rect x="48" y="45" width="4" height="8" fill="${color}"/>`;
}

const APP_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="1024" height="1024">
  <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#2f6fed"/><stop offset="1" stop-color="#1a3f9c"/></linearGradient></defs>
  <rect x="4" y="4" width="56" height="56" rx="13" fill="url(#g)"/>
  <g transform="translate(8 6) scale(0.75)">${drawMark('#ffffff')}</g>
</svg>`;

/** The menu-bar glyph at a pixel size. */
function drawTray(size: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="6 10 52 48" width="${size}" height="${size}">${drawMark('#000000')}</svg>`;
}

/** Renders SVG markup to a transparent PNG of the given size. */
async function renderPng(svg: string, size: number, file: string): Promise<void> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg}</body></html>`,
    );
    await page.locator('svg').screenshot({ path: file, omitBackground: true });
  } finally {
    await browser.close();
  }
}

await mkdir(path.join(rootDir, 'assets', 'tray'), { recursive: true });
await renderPng(APP_ICON, 1024, path.join(rootDir, 'build', 'icon.png'));
await renderPng(drawTray(16), 16, path.join(rootDir, 'assets', 'tray', 'trayTemplate.png'));
await renderPng(drawTray(32), 32, path.join(rootDir, 'assets', 'tray', 'trayTemplate@2x.png'));
console.log('Wrote build/icon.png and assets/tray/trayTemplate{,@2x}.png');
