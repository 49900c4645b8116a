// ESLint (`npm run lint`): Next.js's rules (React, hooks, accessibility, imports, Core Web Vitals) and
// typescript-eslint's type-aware recommended rules. Formatting is Prettier's (.prettierrc.json), not ESLint's.
import nextVitals from 'eslint-config-next/core-web-vitals'
import { defineConfig, globalIgnores } from 'eslint/config'
import tseslint from 'typescript-eslint'

export default defineConfig([
  globalIgnores(['.next/**', '.next-bench/**', 'lib/generated/**', 'test-results/**', 'playwright-report/**', 'bench/results/**', 'next-env.d.ts']),
  ...nextVitals,
  // recommendedTypeChecked: the type-aware rules that find bugs (floating and misused promises, `any` leaking out of
  // JSON.parse and untyped packages, awaiting what is not a promise). Not strictTypeChecked: its no-non-null-assertion
  // forbids `list[i]!`, the idiom of an index known to be in range under tsconfig's noUncheckedIndexedAccess, and its
  // other additions are matters of taste that tsconfig's `strict` already backs with types.
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's test() and describe() return promises that the runner itself awaits: not floating.
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
  // The few JavaScript files (bin/places.mjs, next.config.mjs, this file) are outside tsconfig's project.
  { files: ['**/*.{js,mjs,cjs}'], extends: [tseslint.configs.disableTypeChecked] },
])
