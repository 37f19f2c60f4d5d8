// Node module hooks for the desktop harness: `electron` resolves to the recording fake, so the
// app's real built main bundle runs in plain Node (no Electron binary exists on Linux CI).
// Registered by register-fake-electron.js (node --import).

const FAKE_URL = new URL('./fake-electron-module.ts', import.meta.url).href;

/** Resolve hook: only the bare specifier `electron` is redirected. */
export async function resolve(specifier, context, nextResolve) {
  // Handed on (not short-circuited) so tsx's own hooks resolve and compile the TypeScript fake.
  if (specifier === 'electron') return nextResolve(FAKE_URL, context);
  return nextResolve(specifier, context);
}
