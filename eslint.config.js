// Flat config: typescript-eslint with type information, plus the layering rules of
// docs/architecture.md ("Layers"). Import circles and the server's layer order are
// dependency-cruiser's (.dependency-cruiser.cjs); `npm run lint` runs both.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const platformModules = ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process', 'http', 'net'];

/** Builds a no-restricted-imports rule that forbids the given import patterns. */
function forbidImports(patterns, message) {
  return ['error', { patterns: [{ group: patterns, message }] }];
}

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'data',
      'coverage',
      'test-results',
      'screenshots',
      '.tmp',
      'release',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      // Fastify plugins and route handlers are async by contract even when they await nothing.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['shared/**/*.ts'],
    // shared/ runs in the page, in Electron's main process and in Node: no host's globals.
    languageOptions: { globals: { ...globals['shared-node-browser'] } },
    rules: {
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'navigator', 'localStorage', 'location'].map((name) => ({
          name,
          message: 'shared/ is pure: the browser host passes what it needs in.',
        })),
        ...[
          'process',
          'Buffer',
          'global',
          'require',
          '__dirname',
          '__filename',
          'setImmediate',
        ].map((name) => ({
          name,
          message: 'shared/ is pure: the Node host passes what it needs in.',
        })),
      ],
      'no-restricted-imports': forbidImports(
        [
          ...platformModules,
          'electron',
          'react',
          'react-dom',
          '#server/*',
          '#renderer/*',
          '#electron/*',
          '../*',
        ],
        'shared/ is pure TypeScript: no platform modules, no other layers, import through #shared/.',
      ),
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': forbidImports(
        ['#server/*', '#electron/*', 'electron', 'node:*', '../../*'],
        'renderer/ talks to its host through #shared/bridge.ts only.',
      ),
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': forbidImports(
        ['#renderer/*', '#electron/*', 'electron', '../../*'],
        'server/ imports shared/ and its own modules only.',
      ),
    },
  },
  {
    files: ['electron/**/*.ts'],
    rules: {
      'no-restricted-imports': forbidImports(
        ['#server/*', '#renderer/*', '../../*'],
        'electron/ imports shared/ and its own modules only.',
      ),
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // electron-builder hooks are CommonJS scripts run by electron-builder itself.
    files: ['**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'commonjs',
      globals: { ...globals.node },
    },
    rules: {
      ...tseslint.configs.disableTypeChecked.rules,
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
);
