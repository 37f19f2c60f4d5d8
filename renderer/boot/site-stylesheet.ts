// The pre-rendered landing page carries only the CSS it shows, inlined, and holds the site's
// stylesheet back (a `disabled` link marked data-site-stylesheet, see vite-prerender.ts):
// applying all of Bootstrap was the page's longest task on a phone (issue 30). Whatever the app
// shows besides the landing page waits for it here, as lazily loaded screens wait for their code.
// Every other page links the stylesheet normally, so there is nothing to wait for.

let loading: Promise<void> | undefined;

/**
 * Turns the held-back site stylesheet on and resolves once it applies (at once where the page
 * holds none back). A failed download rejects, and the next call tries again.
 */
export function loadSiteStylesheet(): Promise<void> {
  loading ??= applyHeldBackStylesheet().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

function applyHeldBackStylesheet(): Promise<void> {
  const link = document.querySelector<HTMLLinkElement>('link[data-site-stylesheet]');
  if (link === null || !link.disabled) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (event: Event): void => {
      link.removeEventListener('load', settle);
      link.removeEventListener('error', settle);
      if (event.type === 'load') {
        resolve();
        return;
      }
      // Disabled again, so that a retry downloads it anew.
      link.disabled = true;
      reject(new Error(`The site's stylesheet ${link.href} could not be loaded`));
    };
    link.addEventListener('load', settle);
    link.addEventListener('error', settle);
    link.disabled = false;
  });
}
