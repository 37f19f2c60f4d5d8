// Import rules that `npm run lint` enforces (dependency-cruiser): no circles, a pure shared/,
// a renderer that never reaches into the hosts, and server/ layers that only import downwards.
// docs/architecture.md#layers explains the order; tests/lint/import-rules.test.ts proves each
// rule catches what it is for.

/**
 * server/ from the bottom up. A folder may import its own layer's folders below it in this
 * list and any folder of a lower layer; never one above. Composition roots (server/*.ts) sit
 * on top of everything. Each entry is one layer; folders in one layer are independent of
 * each other unless listed in their own entries.
 */
const SERVER_LAYERS = [
  ['base'],
  ['logging'],
  ['config'],
  ['db'],
  ['ops'],
  ['http'],
  ['notify'],
  ['catalog'],
  ['watch'],
  ['identity'],
  ['accounts'],
  ['searches'],
  ['billing'],
  // Features that stand alone: each imports only the foundation above and shared/.
  ['site', 'simulator', 'backup', 'terminal-watch', 'doctor'],
];

const folderPath = (folder) => `^server/${folder}/`;
const anyOf = (folders) => `^server/(${folders.join('|')})/`;

/** One rule per layer: nothing below it may import it, and it may not import its peers. */
function listLayerRules() {
  const rules = [];
  SERVER_LAYERS.forEach((layer, index) => {
    const above = SERVER_LAYERS.slice(index + 1).flat();
    for (const folder of layer) {
      const peers = layer.filter((other) => other !== folder);
      const forbidden = [...above, ...peers];
      rules.push({
        name: `server-layer-${folder}`,
        comment: `server/${folder}/ imports only the layers below it (and never a composition root)`,
        severity: 'error',
        from: { path: folderPath(folder) },
        to: {
          path:
            forbidden.length === 0
              ? '^server/[^/]+\\.ts$'
              : [anyOf(forbidden), '^server/[^/]+\\.ts$'],
        },
      });
    }
  });
  return rules;
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'Modules that import each other (type-only imports included) cannot be read or moved apart',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-has-no-node-built-ins',
      comment: 'shared/ runs in the browser, Electron and Node alike: no node:* modules',
      severity: 'error',
      from: { path: '^shared/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'shared-imports-no-host',
      comment:
        'shared/ is the core the hosts import; it imports none of them, nor host-only packages',
      severity: 'error',
      from: { path: '^shared/' },
      to: {
        path: [
          '^(server|electron|renderer|tests)/',
          'node_modules/(electron|react|react-dom|pg|kysely|fastify|undici)/',
        ],
      },
    },
    {
      name: 'renderer-stays-in-the-page',
      comment: 'renderer/ talks to its host through the bridge type in shared/, never by import',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^(server|electron)/' },
    },
    {
      name: 'electron-is-not-the-server',
      comment: 'The Mac app shares shared/ with the server, not the server itself',
      severity: 'error',
      from: { path: '^electron/' },
      to: { path: '^(server|renderer)/' },
    },
    {
      name: 'server-is-not-a-host',
      comment: 'The server never imports the renderer or the Mac app',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(renderer|electron)/' },
    },
    ...listLayerRules(),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The rule test's fixtures break every rule on purpose (tests/lint/import-rules.test.ts).
    exclude: { path: ['^(node_modules|dist|release)/', '^tests/fixtures/import-rules/'] },
    // Type-only imports count: a circle of types still ties modules together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
