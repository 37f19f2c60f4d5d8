import type { DesktopContext } from './desktop-context.ts';
import type { DesktopWatch } from './watch-wiring.ts';

/** Pauses the watch loop while the Mac sleeps and resumes it once the network answers. */
export function wirePower(ctx: DesktopContext, watch: DesktopWatch): void {
  // Checks during sleep would fail and back off; see wake-guard.ts for the wait on wake.
  ctx.electron.powerMonitor.on('suspend', () => {
    ctx.info('The Mac is going to sleep: checks paused');
    watch.wake.onSuspend();
  });
  ctx.electron.powerMonitor.on('resume', () => {
    ctx.info('The Mac woke up: waiting for a network that answers');
    watch.wake.onResume();
  });
}
