/**
 * Resolves in a later macrotask: whatever the browser has queued meanwhile (input, a frame) runs
 * first. Boot splits its work with it so no step holds a slow phone's main thread for long.
 */
export function waitForNextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
