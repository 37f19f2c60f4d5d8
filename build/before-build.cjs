// electron-builder's beforeBuild hook (electron-builder.yml). Resolving to false tells
// electron-builder that node_modules are handled elsewhere: it then neither rebuilds native
// modules for Electron nor copies the production dependencies into the app.
//
// That is what we want: dist/desktop/main.js and preload.cjs are bundled with every JS
// dependency they use (vite.desktop.config.ts; only `electron` and Node's builtins stay
// external), and this package.json's `dependencies` are the API server's (Fastify,
// PostgreSQL, Twilio...). Without this hook they would all be packed into app.asar (about
// 150 MB instead of about 2 MB) and rebuilt for Electron on every release.
module.exports = async function beforeBuild() {
  return false;
};
