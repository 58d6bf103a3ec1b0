// House rules as checks (`npm run lint`): typescript-eslint for the code, eslint-plugin-boundaries for the
// architecture in docs/conventions.md. Elements are described by path patterns with captured folder names, so a
// module or feature folder added later is covered without touching this file.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';
import globals from 'globals';

const API = 'apps/api/src';
const WEB = 'apps/web/src';

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
        { type: 'web-ui', mode: 'full', pattern: `${WEB}/ui/**` },
        { type: 'web-api', mode: 'full', pattern: `${WEB}/api/**` },
        { type: 'web-app', mode: 'full', pattern: `${WEB}/**` },
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
              from: ['web-ui', 'web-api'],
              disallow: ['web-feature', 'web-app'],
              message: 'src/ui und src/api importieren keine Features und keine App-Schale.',
            },
            {
              from: ['api-module', 'api-routes', 'api-repo'],
              disallow: [['api-repo', { module: '!{{ from.module }}' }]],
              message:
                'Das Repository eines Moduls (${dependency.module}) wird nur im eigenen Modul benutzt – nutze dessen Service.',
            },
            {
              // Checkout lives in orders and uses the carts' service; carts never reach back into orders.
              from: [
                ['api-module', { module: 'carts' }],
                ['api-routes', { module: 'carts' }],
                ['api-repo', { module: 'carts' }],
              ],
              disallow: [
                ['api-module', { module: 'orders' }],
                ['api-routes', { module: 'orders' }],
                ['api-repo', { module: 'orders' }],
              ],
              message: 'Warenkörbe importieren nichts aus dem Bestellmodul (orders → carts, nie umgekehrt).',
            },
            {
              // The HTTP layer sits below the modules: it may name their types (the AppDeps interface), not run them.
              from: ['api-http'],
              disallow: ['api-module', 'api-routes', 'api-repo'],
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
                'web-app',
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
    // Route files: no database driver, no SQL builder, no pool – only services.
    files: ['apps/api/src/modules/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['pg', 'drizzle-orm', 'drizzle-orm/*'], message: 'Routen greifen nicht auf die Datenbank zu.' },
          ],
        },
      ],
      // …nor through the deps: no statements and no raw client in a route file (SQL lives in *.repo.ts).
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='query']",
          message:
            'Routen führen kein SQL aus: die Abfrage gehört in das Repository des Moduls, aufgerufen über den Service.',
        },
        {
          selector: "MemberExpression[property.name='$client']",
          message: 'Routen greifen nicht auf den Datenbank-Client zu: den Service mit `db` bauen.',
        },
      ],
    },
  },
);
