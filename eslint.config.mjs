// ESLint (`npm run lint`): Next.js's plugin (Core Web Vitals), React's, the rules of hooks, accessibility (jsx-a11y)
// and typescript-eslint's type-aware recommended rules. Formatting is Prettier's (.prettierrc.json), not ESLint's.
// The plugins are named one by one rather than through eslint-config-next: that preset also brings eslint-plugin-import,
// whose resolver ships native binaries per platform that the lockfile cannot all record here, and `npm ci` then fails.
import nextPlugin from '@next/eslint-plugin-next'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import react from 'eslint-plugin-react'
import reactHooks from 'eslint-plugin-react-hooks'
import { defineConfig, globalIgnores } from 'eslint/config'
import tseslint from 'typescript-eslint'

export default defineConfig([
  globalIgnores([
    '.next/**',
    '.test-data/**',
    '.next-bench/**',
    'lib/generated/**',
    'test-results/**',
    'playwright-report/**',
    'bench/results/**',
    'next-env.d.ts',
  ]),
  {
    files: ['**/*.{ts,tsx,mts}'],
    extends: [react.configs.flat.recommended, react.configs.flat['jsx-runtime'], reactHooks.configs.flat.recommended, jsxA11y.flatConfigs.recommended],
    plugins: { '@next/next': nextPlugin },
    settings: { react: { version: 'detect' } },
    rules: {
      ...nextPlugin.configs['core-web-vitals'].rules,
      // TypeScript checks props; React's prop-types are for JavaScript.
      'react/prop-types': 'off',
      // Links between pages are plain <a>: each page is a whole new load, so the admin's frame (who is signed in and
      // what they may do) is rendered anew every time, and each page has its own CSP nonce (app/layout.tsx).
      '@next/next/no-html-link-for-pages': 'off',
    },
  },
  // recommendedTypeChecked: the type-aware rules that find bugs (floating and misused promises, `any` leaking out of
  // JSON.parse and untyped packages, awaiting what is not a promise). Not strictTypeChecked: its no-non-null-assertion
  // forbids `list[i]!`, the idiom of an index known to be in range under tsconfig's noUncheckedIndexedAccess, and its
  // other additions are matters of taste that tsconfig's `strict` already backs with types.
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's test() and describe() return promises that the runner itself awaits: not floating.
      // `const { a: _, ...rest } = x` is how a key is left out of a copy: named `_`, the left-out value is not unused.
      '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^_', argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
    },
  },
  // The HTTP specs read answers as JSON (`any`) and assert on their fields: the assertions are the checks, and
  // e2e/api/openapi.spec.ts validates every answer's shape against the contract's schemas.
  {
    files: ['e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  // The few JavaScript files (bin/places.mjs, next.config.mjs, this file) are outside tsconfig's project.
  { files: ['**/*.{js,mjs,cjs}'], extends: [tseslint.configs.disableTypeChecked] },
])
