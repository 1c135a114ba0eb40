// One lint configuration for the whole workspace.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { apiBoundaries } from './scripts/lint/apiBoundaries.mjs';
import { readdirSync } from 'node:fs';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';

/** The browser packages whose features are fenced off from each other. */
const BROWSER_APPS = ['shell', 'mfe-storefront', 'mfe-account', 'mfe-partner', 'mfe-organiser', 'mfe-certificate'];

function featuresOf(app) {
  try {
    return readdirSync(new URL(`./${app}/src/features`, import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/**
 * A feature imports only @finishline/shared, packages and its own folder: nothing else of its app
 * (other features, app-level files). Only App.tsx and src/app/** compose features.
 */
const featureZones = BROWSER_APPS.flatMap((app) =>
  featuresOf(app).map((feature) => ({
    target: `./${app}/src/features/${feature}`,
    from: `./${app}/src`,
    except: [`./features/${feature}`],
    message: 'A feature imports only @finishline/shared, packages and its own folder; compose features in App.tsx or src/app.',
  })),
);

/** Relative imports in the sources omit the extension; the import-x resolver tries these. */
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.json'];

/** The storage module is the only code that touches localStorage. */
const STORAGE_MODULE = 'shared/src/storage/localStore.ts';
const LOCAL_STORAGE_MESSAGE = "Read and write local storage only through localStore from '@finishline/shared/pure'.";

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.data/**', 'e2e/.artifacts/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['shared/src/**/*.{ts,tsx}', 'shell/src/**/*.{ts,tsx}', 'mfe-*/src/**/*.{ts,tsx}'],
    ignores: [STORAGE_MODULE, '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-globals': ['error', { name: 'localStorage', message: LOCAL_STORAGE_MESSAGE }],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self'].map((object) => ({ object, property: 'localStorage', message: LOCAL_STORAGE_MESSAGE })),
      ],
    },
  },
  {
    files: BROWSER_APPS.map((app) => `${app}/src/features/**/*.{ts,tsx}`),
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: SOURCE_EXTENSIONS })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: featureZones }],
    },
  },
  {
    // Features never import each other sideways; remotes never import another remote.
    files: ['mfe-*/src/**/*.{ts,tsx}', 'shell/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/mfe-*/**', '@finishline/mfe-*'], message: 'Remotes never import another remote; share through @finishline/shared.' }] },
      ],
    },
  },
  {
    // The API's layers (docs/architecture.md): a feature imports another feature only through its
    // index.ts, shared rules come from api/src/rules/, and the rules import no feature.
    files: ['api/src/**/*.ts'],
    plugins: { 'api-boundaries': apiBoundaries },
    rules: { 'api-boundaries/feature-imports': 'error', 'api-boundaries/role-layers': 'error' },
  },
  {
    // No import cycles in the API (docs/architecture.md, "The API's layers"): two modules that need
    // each other belong together, or what both need moves to a lower module. `import type` is erased
    // by the compiler and never counts: import-x 4 skips type-only imports by itself (it has no
    // option for it). The API's relative imports omit `.ts`, so the resolver tries the extensions, and
    // import-x parses a resolved module only when its extension is listed in import-x/extensions.
    // ignoreExternal: packages cannot import the API back, so the rule does not read node_modules.
    files: ['api/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: SOURCE_EXTENSIONS })],
      'import-x/extensions': SOURCE_EXTENSIONS.filter((extension) => extension !== '.json'),
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Every setting is read once, validated, in api/src/config/config.ts (docs/configuration.md lists
    // them): a stray read elsewhere is a setting nobody documents or checks.
    files: ['api/src/**/*.{ts,mjs}'],
    ignores: ['api/src/config/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read settings in api/src/config/config.ts (loadConfig, modelSettings) and pass them in; list new ones in docs/configuration.md.',
        },
      ],
    },
  },
  {
    // The run-time singletons of shared are reached only through their package name, so that Module
    // Federation shares them; a relative import would put a private copy into a remote's bundle.
    files: ['shared/src/**/*.{ts,tsx}'],
    ignores: ['shared/src/runtime.ts', 'shared/src/runtime/**', 'shared/src/api/client.ts', 'shared/src/api/errors.ts', 'shared/src/state/shopStore.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.{1,2}/(.*/)?(runtime|runtime/runtimeConfig|api/client|client|api/errors|errors|state/shopStore|shopStore)$',
              message: "Import the run-time singletons from '@finishline/shared/runtime' (see shared/src/runtime.ts).",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
);
