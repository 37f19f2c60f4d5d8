// Imported here, by the entry, so the build links the stylesheet from the HTML itself.
import 'bootstrap/dist/css/bootstrap.min.css';
import '../styles/app.css';
import { loadChunk } from '#renderer/components/layout/chunk-loading.ts';
import { waitForNextTask } from './wait-for-next-task.ts';

// The site's entry script. The page the server sends is readable as it arrives (the landing
// page is pre-rendered, every other page shows "Loading Shelfwatch…"), so the browser paints
// it first and the app (React and the rest, about 110 KB gzipped) loads after that frame.
// A module script that is ready when the HTML has been parsed otherwise runs before the first
// paint: on a slow phone evaluating React held the landing page's first paint (issue 30: LCP).

/** Runs `start` once the browser has painted a frame, or at once in a hidden tab. */
export function runAfterFirstPaint(start: () => void): void {
  let isStarted = false;
  const startOnce = (): void => {
    if (isStarted) return;
    isStarted = true;
    start();
  };
  // Hidden tabs get no animation frames: nothing to paint there, so no reason to wait.
  if (document.visibilityState === 'hidden') {
    startOnce();
    return;
  }
  document.addEventListener('visibilitychange', startOnce, { once: true });
  // A task queued from an animation frame callback runs after that frame has been painted.
  requestAnimationFrame(() => setTimeout(startOnce, 0));
}

/** Replaces the page with a plain notice when the app's own code cannot be downloaded. */
function showBootFailure(): void {
  const root = document.getElementById('root');
  if (root === null || root.dataset.prerendered === 'landing') return;
  const notice = document.createElement('div');
  notice.className = 'text-center py-5';
  notice.setAttribute('role', 'alert');
  notice.innerHTML =
    '<h1 class="h3">This page didn\u2019t load</h1>' +
    '<p class="text-body-secondary">A part of Shelfwatch could not be downloaded. ' +
    'Check your connection and <a href="">try again</a>.</p>';
  root.replaceChildren(notice);
}

/**
 * Loads the app in two steps. A module graph is evaluated in one task, and React's DOM renderer
 * alone is the biggest module: evaluated with the app's own modules it made one long task on a
 * slow phone (issue 30: total blocking time), so it goes first, in a task of its own.
 */
export async function loadAppInSteps(
  loadRenderer: () => Promise<unknown>,
  loadApp: () => Promise<unknown>,
): Promise<void> {
  await loadRenderer();
  await waitForNextTask();
  await loadApp();
}

runAfterFirstPaint(() => {
  // The pre-rendered landing page stays readable (links work without the app); other pages
  // say what happened instead of "Loading Shelfwatch…" for ever.
  loadChunk(() =>
    loadAppInSteps(
      () => import('react-dom/client'),
      () => import('../main.tsx'),
    ),
  ).catch(showBootFailure);
});
