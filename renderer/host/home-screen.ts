// iPhone and iPad: Safari delivers web push only to a site added to the Home Screen and opened
// from its icon (iOS 16.4 and later); in a Safari tab, PushManager and Notification don't
// exist. The alert settings use these to explain that instead of "this browser can't".

/** True on iPhone, iPod and iPad (iPadOS Safari names itself a Mac, but has touch). */
export function isAppleMobileDevice(
  userAgent: string = navigator.userAgent,
  platform: string = navigator.platform,
  maxTouchPoints: number = navigator.maxTouchPoints,
): boolean {
  return /iPhone|iPad|iPod/.test(userAgent) || (platform === 'MacIntel' && maxTouchPoints > 1);
}

/**
 * True when the site runs as an installed web app: Safari's own flag (navigator.standalone),
 * or the display mode the manifest asks for, as other browsers report it.
 */
export function isRunningStandalone(): boolean {
  const isSafariStandalone = (navigator as Navigator & { standalone?: boolean }).standalone;
  if (isSafariStandalone === true) return true;
  return typeof window.matchMedia === 'function'
    ? window.matchMedia('(display-mode: standalone)').matches
    : false;
}

/** True where notifications need the site on the Home Screen first: iOS, in a Safari tab. */
export function needsHomeScreenForPush(): boolean {
  return isAppleMobileDevice() && !isRunningStandalone();
}
