// Dark mode that follows the system, on the website and in the macOS app (whose window reports
// macOS's appearance through prefers-color-scheme while nativeTheme.themeSource is 'system').
// Bootstrap 5.3 switches its colours on the data-bs-theme attribute, not on the media query, so
// the attribute follows the query here, before the first render and on every change.

/** The query both surfaces follow. */
const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Sets <html data-bs-theme> from the system's appearance and keeps it in step. */
export function followSystemColorScheme(
  root: HTMLElement,
  media: Pick<MediaQueryList, 'matches' | 'addEventListener'>,
): void {
  const apply = (isDark: boolean) => {
    root.dataset.bsTheme = isDark ? 'dark' : 'light';
  };
  apply(media.matches);
  media.addEventListener('change', (event) => apply(event.matches));
}

if (typeof window !== 'undefined' && typeof window.matchMedia === 'function') {
  followSystemColorScheme(document.documentElement, window.matchMedia(DARK_QUERY));
}
