// ESLint for every Nx project (`npx nx run-many -t lint`, `npm run lint`): typescript-eslint's
// type-checked rules, no folder importing a folder above it (hence no import cycles), and the Nx module boundaries between services, platform libs,
// contracts, testing helpers and the end-to-end suite (tags in each package.json's `nx.tags`).
// Formatting is Prettier's (`npm run format`): eslint-config-prettier turns the style rules off.
import js from '@eslint/js';
import { createProjectGraphAsync, readCachedProjectGraph } from '@nx/devkit';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { plugin as school } from './libs/tools/src/eslint/no-folder-cycles.mjs';

// @nx/enforce-module-boundaries reads the project graph Nx caches in .nx/ and, where there is none
// (a fresh clone: npm test builds without Nx), skips every file with only a warning. Make it first.
try {
  readCachedProjectGraph();
} catch {
  await createProjectGraphAsync({ exitOnError: false });
}

const TS = ['**/*.ts'];
const JS = ['**/*.js', '**/*.mjs', '**/*.cjs'];
const PROJECT_CODE = ['**/src/**', '**/test/**'];
const TESTS = ['**/test/**', '**/src/testing/**', 'e2e/src/**'];

// Who may import whom. Services never import each other: they talk over HTTP and RabbitMQ.
// Libs never import services. Contracts are pure schemas. Test helpers stay out of production code.
const productionConstraints = [
  { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
  { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:testing'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:service', 'type:platform', 'type:contracts', 'type:testing'] },
  { sourceTag: 'type:tools', onlyDependOnLibsWithTags: [] },
  // npm start's supervisor, the proof commands and the benchmarks drive the built system as operators do.
  { sourceTag: 'type:scripts', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:testing'] },
];
// Tests (and a lib's own testing entry) may also use @school/testing.
const testConstraints = productionConstraints.map((constraint) =>
  constraint.sourceTag === 'type:service' || constraint.sourceTag === 'type:platform'
    ? { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, 'type:testing'] }
    : constraint,
);
// Identity's contexts in layers, lowest first (docs/services/identity.md): a context imports only
// those of lower layers, never one of its own layer or above, nor the composition at the top
// (app.module.ts, config.ts, openapi.ts, main.ts).
const IDENTITY_SRC = 'services/identity/src';
const IDENTITY_LAYERS = [
  ['keys', 'passwords', 'login-backoff'],
  ['accounts'],
  ['sessions', 'credentials', 'audit'],
  ['mfa'],
  ['auth', 'users', 'account-export'],
  ['bootstrap', 'retention', 'cli'],
];
const IDENTITY_TOP = ['app.module.ts', 'config.ts', 'openapi.ts', 'main.ts'].map((file) => `./${IDENTITY_SRC}/${file}`);
const identityLayerZones = IDENTITY_LAYERS.flatMap((layer, level) =>
  layer.map((context) => {
    const others = IDENTITY_LAYERS.slice(level)
      .flat()
      .filter((other) => other !== context);
    return {
      target: `./${IDENTITY_SRC}/${context}`,
      from: [...others.map((other) => `./${IDENTITY_SRC}/${other}`), ...IDENTITY_TOP],
      message: `identity's ${context} may import only contexts of lower layers (IDENTITY_LAYERS in eslint.config.mjs).`,
    };
  }),
);

// Tests import their own lib by its package name, as its users do: allowCircularSelfDependency.
const boundaries = (depConstraints, allow = []) => ['error', { allow, allowCircularSelfDependency: true, enforceBuildableLibDependency: false, depConstraints }];

export default tseslint.config(
  {
    // e2e/fixtures: copied beside a generated schema and compiled there by its own test.
    ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**', '**/src/generated/**', '.nx/**', 'e2e/fixtures/**'],
  },
  js.configs.recommended,
  { plugins: { '@nx': nx } },
  {
    files: TS,
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      // Types come from each file's own project (its tsconfig.json), so one project lints alone. The whole
      // workspace linted at once (LINT_WHOLE_WORKSPACE=1) takes them from one program, the root
      // tsconfig.json, which holds every project's files under the same options
      // (e2e/test/typecheck.test.ts), for a quarter of the CPU of one program per project; `npm test`
      // hands ESLint that program once it has typechecked it (scripts/src/typecheck-and-lint.ts).
      parserOptions: {
        ...(process.env.LINT_WHOLE_WORKSPACE === '1' ? { project: './tsconfig.json' } : { projectService: true }),
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    files: [...TS, ...JS],
    plugins: { 'import-x': importX },
    settings: {
      // Sources import each other as `./x.js` (nodenext): resolve that to the `.ts` file.
      'import-x/resolver-next': [importX.createNodeResolver({ extensions: ['.ts', '.js', '.mjs'], extensionAlias: { '.js': ['.ts', '.js'] } })],
      'import-x/extensions': ['.ts', '.js', '.mjs'],
    },
  },
  {
    // No folder imports a folder above it, in any service, lib or at the root (libs/tools/src/eslint/no-folder-cycles.mjs).
    // Two files that import each other, directly or round a circle, make a circle of folders in the
    // deepest folder holding them all, so this also keeps the code free of import cycles, for a
    // twentieth of import-x/no-cycle's time (which walked every file's imports again).
    files: [...TS, ...JS],
    plugins: { school },
    rules: { 'school/no-folder-cycles': ['error', { root: import.meta.dirname }] },
  },
  {
    // Test code is not ranked by folder (a test imports what it tests, wherever it is): its helpers keep no file cycles.
    files: TESTS,
    ignores: ['**/*.test.ts', '**/*.spec.ts'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // Boundaries hold between the projects' own code; config files (jest.config.js) reach the root presets.
  {
    files: PROJECT_CODE,
    rules: { '@nx/enforce-module-boundaries': boundaries(productionConstraints) },
  },
  { files: TESTS, rules: { '@nx/enforce-module-boundaries': boundaries(testConstraints) } },
  {
    // The end-to-end suite checks the repo's own artefacts white-box (route table, migrations,
    // deploy manifests, scripts) by importing them where they live.
    files: ['e2e/src/**', 'e2e/test/**'],
    rules: { '@nx/enforce-module-boundaries': boundaries(testConstraints, ['^(\\.\\./)+(services|libs|scripts|deploy)/']) },
  },
  {
    // One time-scale rule shared with jest's config, which is plain JavaScript outside any project;
    // the tests of that config run jest on fixture projects built from the root preset.
    files: ['libs/testing/src/**', 'libs/testing/test/**'],
    rules: { '@nx/enforce-module-boundaries': boundaries(testConstraints, ['^(\\.\\./)+(scripts/jest/|jest\\.preset\\.js$)']) },
  },
  {
    files: [`${IDENTITY_SRC}/**`],
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: identityLayerZones }] },
  },
  {
    files: TS,
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `async` without `await` is how a method keeps its interface's Promise contract and turns a
      // throw into a rejection; dropping it would make such throws synchronous.
      '@typescript-eslint/require-await': 'off',
      // A leading underscore names a value left out on purpose (`const { _port, ...rest } = ...`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Passing on a caught value as it came (`reject(error)` in a catch) invents no non-Error.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // `let x; listen(() => x?.release()); x = await ...`: a const there would be read before it exists.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Jest's asymmetric matchers (expect.any, objectContaining) are typed `any`, and tests read
    // untyped JSON on purpose: the assertion is what checks its shape.
    files: [...TESTS, '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The proof commands and the benchmarks read the system's JSON answers untyped, as the tests do:
    // the check that follows is what says its shape.
    files: ['scripts/src/proof/**', 'scripts/src/faults/**', 'scripts/src/soak/**', 'scripts/src/soak.ts', 'bench/src/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Prisma's CLI configs belong to no project's tsconfig (the root one checks them).
    files: [...JS, 'services/*/prisma.config.ts'],
    extends: [tseslint.configs.recommended, tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
  },
  prettier,
);
