// `require('electron')` in the desktop harness (electron-updater is CommonJS): the same fake
// the ES module import got, which register-fake-electron.js created before the app started.
const fake = globalThis.__shelfwatchFakeElectron;
if (fake === undefined) throw new Error('The fake electron module was not loaded first');
module.exports = fake.electron;
