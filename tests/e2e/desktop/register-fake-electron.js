// `node --import tsx --import ./register-fake-electron.js dist/desktop/main.js` runs the
// app's built main bundle against the recording fake of Electron, as on a Mac.
import { register, registerHooks } from 'node:module';

// The app is a macOS app: electron-updater picks its Squirrel.Mac updater by this, as there.
Object.defineProperty(process, 'platform', { value: 'darwin' });
// Where a packed app's Resources are (electron-updater reads app-update.yml there).
process.resourcesPath = process.env.SHELFWATCH_FAKE_RESOURCES ?? process.cwd();

register('./electron-loader.js', import.meta.url);
await import('./fake-electron-module.ts');

const REQUIRE_SHIM = new URL('./electron-require-shim.cjs', import.meta.url).href;
// require('electron') does not pass through the asynchronous loader above; a synchronous
// hook sends it to the same fake.
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron' && context.conditions?.includes('require')) {
      return { url: REQUIRE_SHIM, shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
});
