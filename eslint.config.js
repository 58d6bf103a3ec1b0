// House rules as checks (`npm run lint`): typescript-eslint for the code, eslint-plugin-boundaries for the
// architecture in docs/conventions.md. Elements are described by path patterns with captured folder names, so a
// module or feature folder added later is covered without touching this file.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import { responseDtoNames } from './scripts/response-dto-names.mjs';

const API = 'apps/api/src';
const WEB = 'apps/web/src';

const SQL_IN_REPOSITORY = 'SQL gehört in das Repository des Moduls (*.repo.ts); Services rufen dessen Funktionen auf.';

// Statements outside a repository: `x.query(…)` (pg), `x.$client.connect()/.query()` and a dedicated connection
// (`pool.connect()`). Repositories use SQL with parameters; there is no query builder (docs/conventions.md).
const MODULE_SQL_SELECTORS = [
  { selector: "CallExpression[callee.property.name='query']", message: SQL_IN_REPOSITORY },
  {
    selector: "CallExpression[callee.object.property.name='$client'][callee.property.name!=/^(query|connect)$/]",
    message: SQL_IN_REPOSITORY,
  },
  {
    selector: "CallExpression[callee.property.name='connect'][arguments.length=0]",
    message: 'Eigene Verbindungen und Transaktionen: inTransaction (src/db/pool.ts) oder eine Funktion im Repository.',
  },
];

// Value imports of the SQL tools outside repositories (`import type pg from 'pg'` for client types stays allowed).
const MODULE_DB_IMPORTS = [{ name: 'pg-copy-streams', message: SQL_IN_REPOSITORY, allowTypeImports: true }];

// Module files exempt from the SQL rule, each with the reason (docs/conventions.md, „Checks“). Every other module file
// runs its SQL through the module's repositories; a new exception needs a reason here.
const SQL_OUTSIDE_REPOSITORIES = [
  // Kept on purpose: the pg-boss wrapper hands the caller's open transaction to pg-boss (its `executeSql` option); it
  // runs no SQL of its own.
  'apps/api/src/modules/jobs/jobs.ts',
];

// Small pieces: a function over 150 lines (blank lines and comments not counted) is a warning, over 200 an error.
const FUNCTION_SIZE = { max: 200, skipBlankLines: true, skipComments: true, IIFEs: true };
// Web functions still over 200 lines: a warning until they are split into a data hook, sections and a form model
// (docs/conventions.md). Remove a file from this list once it passes; the list only shrinks.
export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tmp/**',
      'apps/web/src/api/schema.d.ts',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      // `_`-prefixed names are deliberate (unused callback parameters, destructured-away fields).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
    plugins: { boundaries },
    settings: {
      // The node resolver (bundled with eslint-plugin-boundaries): no path aliases here, every import is relative or a
      // package. eslint-import-resolver-typescript was dropped because its native unrs-resolver bindings for other
      // platforms are not on the registry this project installs from, so `npm ci` refused the lock file.
      'import/resolver': {
        node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
      },
      // First match wins: files with a role (repository, routes) before the folder they sit in.
      'boundaries/elements': [
        { type: 'web-feature', mode: 'full', pattern: `${WEB}/features/*/**`, capture: ['feature'] },
        // The SPA in three layers (bulletproof-react): the app shell (src/app, main.tsx) → features → shared
        // (src/ui, src/api, src/lib). Imports go only downwards; within shared: ui → api → lib.
        // Test helpers (render with the app's providers, jsdom set-up) serve tests of every layer.
        { type: 'web-test', mode: 'full', pattern: `${WEB}/test/**` },
        { type: 'web-ui', mode: 'full', pattern: `${WEB}/ui/**` },
        { type: 'web-api', mode: 'full', pattern: `${WEB}/api/**` },
        { type: 'web-lib', mode: 'full', pattern: `${WEB}/lib/**` },
        { type: 'web-app', mode: 'full', pattern: `${WEB}/**` },
        // Tests and their fixtures may reach into any module (they set up data and check internals).
        {
          type: 'api-test',
          mode: 'full',
          pattern: [`${API}/**/*.test.ts`, `${API}/**/*.fixtures.ts`, `${API}/modules/*/fixtures/**`],
        },
        // The registry of all modules' routes (modules/index.ts).
        { type: 'api-registry', mode: 'full', pattern: `${API}/modules/index.ts` },
        // A module's public face: what other modules may import from it.
        { type: 'api-face', mode: 'full', pattern: `${API}/modules/*/index.ts`, capture: ['module'] },
        { type: 'api-repo', mode: 'full', pattern: `${API}/modules/*/**/*.repo.ts`, capture: ['module'] },
        { type: 'api-routes', mode: 'full', pattern: `${API}/modules/*/**/*.routes.ts`, capture: ['module'] },
        { type: 'api-module', mode: 'full', pattern: `${API}/modules/*/**`, capture: ['module'] },
        { type: 'api-db', mode: 'full', pattern: `${API}/db/**` },
        { type: 'api-http', mode: 'full', pattern: `${API}/http/**` },
        { type: 'api-other', mode: 'full', pattern: 'apps/api/**' },
        { type: 'contracts', mode: 'full', pattern: 'packages/contracts/**' },
      ],
      'boundaries/include': ['apps/**/*.{ts,tsx}', 'packages/**/*.ts'],
      // Re-exports (`export { X } from`) and lazy imports cross boundaries too.
      'boundaries/dependency-nodes': ['import', 'export', 'dynamic-import'],
    },
    rules: {
      'boundaries/element-types': [
        'error',
        {
          default: 'allow',
          message: '${file.type} darf ${dependency.type} nicht importieren (docs/conventions.md, „Checks“).',
          rules: [
            {
              from: ['web-feature'],
              disallow: [['web-feature', { feature: '!{{ from.feature }}' }]],
              message: 'Ein Feature importiert kein anderes Feature (${file.feature} → ${dependency.feature}).',
            },
            {
              from: ['web-feature'],
              disallow: ['web-app'],
              message:
                'Ein Feature importiert nichts aus der App-Schale (src/app); Gemeinsames gehört nach src/ui, src/api oder src/lib.',
            },
            {
              from: ['web-ui', 'web-api', 'web-lib'],
              disallow: ['web-feature', 'web-app'],
              message: 'src/ui, src/api und src/lib importieren keine Features und keine App-Schale.',
            },
            {
              // Data hooks raise toasts and analytics events through src/lib (toast, analytics), not through the UI.
              from: ['web-api'],
              disallow: ['web-ui'],
              message: 'src/api importiert nichts aus src/ui; Toasts und Analytics kommen aus src/lib.',
            },
            {
              from: ['web-lib'],
              disallow: ['web-ui', 'web-api'],
              message: 'src/lib ist die unterste Schicht und importiert weder src/ui noch src/api.',
            },
            {
              from: ['api-module', 'api-routes', 'api-repo'],
              disallow: [['api-repo', { module: '!{{ from.module }}' }]],
              message:
                'Das Repository eines Moduls (${dependency.module}) wird nur im eigenen Modul benutzt – nutze dessen Service.',
            },
            {
              // Modules have faces: another module is reached through its index.ts only (service, types, routes).
              from: ['api-module', 'api-routes', 'api-repo', 'api-face'],
              disallow: [
                ['api-module', { module: '!{{ from.module }}' }],
                ['api-routes', { module: '!{{ from.module }}' }],
                ['api-repo', { module: '!{{ from.module }}' }],
              ],
              message:
                'Ein anderes Modul nur über seine index.ts importieren (${file.module} → ${dependency.module}); fehlt dort etwas, es in dessen index.ts exportieren.',
            },
            {
              from: ['api-registry'],
              disallow: ['api-module', 'api-routes', 'api-repo'],
              message: 'Die Modulliste importiert jedes Modul über seine index.ts.',
            },
            {
              // Checkout lives in orders and uses the carts' service; carts never reach back into orders.
              from: [
                ['api-module', { module: 'carts' }],
                ['api-routes', { module: 'carts' }],
                ['api-repo', { module: 'carts' }],
                ['api-face', { module: 'carts' }],
              ],
              disallow: [
                ['api-face', { module: 'orders' }],
                ['api-module', { module: 'orders' }],
                ['api-routes', { module: 'orders' }],
                ['api-repo', { module: 'orders' }],
              ],
              message: 'Warenkörbe importieren nichts aus dem Bestellmodul (orders → carts, nie umgekehrt).',
            },
            {
              // The HTTP layer sits below the modules: it may name their types (the AppDeps interface), not run them.
              from: ['api-http'],
              disallow: ['api-face', 'api-module', 'api-routes', 'api-repo'],
              importKind: 'value',
              message: 'src/http importiert aus Modulen nur Typen (AppDeps), keine Services oder Repositories.',
            },
            {
              // Exception: the CSP hashes the identity provider's one inline script, so it reads that constant.
              from: ['api-http'],
              allow: [['api-module', { module: 'identity' }]],
              importKind: 'value',
            },
            {
              from: ['api-routes'],
              disallow: ['api-db', 'api-repo'],
              message:
                'Routen sprechen mit Services, nicht mit Datenbank oder Repository (routes → service → repository).',
            },
            {
              from: ['contracts'],
              disallow: [
                'web-feature',
                'web-ui',
                'web-api',
                'web-lib',
                'web-app',
                'api-face',
                'api-module',
                'api-routes',
                'api-repo',
                'api-db',
              ],
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.{ts,tsx}'],
    // ESLint gives a rule one severity: the warning at 150 lines is the same core rule under a second name.
    plugins: { size: { rules: { 'max-lines-per-function-warn': builtinRules.get('max-lines-per-function') } } },
    rules: {
      'max-lines-per-function': ['error', FUNCTION_SIZE],
      'size/max-lines-per-function-warn': ['warn', { ...FUNCTION_SIZE, max: 150 }],
    },
  },
  {
    // Tests are exempt: a describe block holds its cases, and splitting it scatters one scenario.
    files: ['**/*.test.{ts,tsx}', '**/test/**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': 'off', 'size/max-lines-per-function-warn': 'off' },
  },
  {
    // Tests read JSON bodies of real API responses and database rows; typing each one would restate the
    // OpenAPI document. Production code keeps the rule.
    files: ['**/*.test.{ts,tsx}', '**/test/**/*.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Numbers and dates are formatted in one place (German formats, Europe/Berlin); icons come from Tabler.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/ui/format.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^toLocale(String|DateString|TimeString)$/]',
          message: 'Zahlen und Daten über src/ui/format.ts formatieren.',
        },
        {
          selector: "JSXOpeningElement[name.name='svg']",
          message: 'Icons aus @tabler/icons-react (src/ui/icons.tsx), keine selbst gezeichneten SVGs.',
        },
      ],
    },
  },
  {
    // The two drawings that are not icons: the portal's logo mark and the table's sort arrows.
    files: ['apps/web/src/ui/icons.tsx', 'apps/web/src/ui/DataTable.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^toLocale(String|DateString|TimeString)$/]',
          message: 'Zahlen und Daten über src/ui/format.ts formatieren.',
        },
      ],
    },
  },
  {
    // Features and shared UI call the API through the typed wrappers in src/api/<domain>.ts.
    files: ['apps/web/src/features/**/*.{ts,tsx}', 'apps/web/src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/api/client', 'openapi-fetch'],
              message: 'Die API über die Wrapper in src/api/<domain>.ts aufrufen.',
            },
          ],
        },
      ],
    },
  },
  {
    // One source of response types in the SPA: the generated OpenAPI types, named in src/api (types.ts or the
    // domain wrapper). Contracts stay the source of requests, forms and rules (zod request schemas, enums, limits,
    // texts); only their response schemas (read from openapi.json after `npm run gen:api`) are refused here.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@shk/contracts',
              importNames: responseDtoNames(import.meta.dirname),
              message: 'Antwort-Typen (DTOs) kommen aus src/api (generierte OpenAPI-Typen), nicht aus @shk/contracts.',
            },
          ],
        },
      ],
    },
  },
  {
    // src/ui is presentation: data hooks (react-query) live in src/api, next to the calls they wrap.
    files: ['apps/web/src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/api/client', 'openapi-fetch'],
              message: 'Die API über die Wrapper in src/api/<domain>.ts aufrufen.',
            },
            { group: ['@tanstack/react-query'], message: 'Daten-Hooks gehören nach src/api, nicht nach src/ui.' },
          ],
        },
      ],
    },
  },
  {
    // SQL lives in the module's repositories (*.repo.ts); services, workers and helpers of a module call them and pass
    // the pool or the transaction's client (`tx.$client`) in. Infrastructure outside the modules (src/db, src/lib,
    // src/jobs) is not covered. The exceptions are listed above, each with its reason.
    files: ['apps/api/src/modules/**/*.ts'],
    ignores: ['**/*.repo.ts', '**/*.test.ts', '**/*.fixtures.ts', ...SQL_OUTSIDE_REPOSITORIES],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: MODULE_DB_IMPORTS }],
      'no-restricted-syntax': ['error', ...MODULE_SQL_SELECTORS],
    },
  },
  {
    // One configuration: the API reads its environment only in src/config.ts (zod-checked, listed in the README).
    // Tests, benchmarks and scripts are outside apps/api/src or named *.test.ts: they set up the environment of the
    // processes they start and read their own knobs (TEST_*, BENCH_*), which are no settings of the portal.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/config.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Umgebungsvariablen nur in src/config.ts lesen (configSchema); hier die AppConfig benutzen.',
        },
      ],
    },
  },
  {
    // Route files: no database driver, no SQL builder, no pool – only services.
    files: ['apps/api/src/modules/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['pg'], message: 'Routen greifen nicht auf die Datenbank zu.' }],
        },
      ],
      // …nor through the deps: no statements and no raw client in a route file (SQL lives in *.repo.ts).
      'no-restricted-syntax': [
        'error',
        ...MODULE_SQL_SELECTORS,
        {
          selector: "MemberExpression[property.name='$client']",
          message: 'Routen greifen nicht auf den Datenbank-Client zu: den Service mit `db` bauen.',
        },
      ],
    },
  },
);
