// `node --import tsx --import ./register-fake-electron.js dist/desktop/main.js` runs the
// app's built main bundle against the recording fake of Electron.
import { register } from 'node:module';

register('./electron-loader.js', import.meta.url);
