// ESLint flat config for bench/peers.bench.ts only (not the project's lint setup): ESLint with
// eslint-plugin-security's recommended rules, the configuration a JavaScript/TypeScript team would
// pick as a security linter, over every JS/TS file of the folder it is run in.
import security from 'eslint-plugin-security'
import tsParser from '@typescript-eslint/parser'

export default [
  { files: ['**/*.{js,cjs,mjs,jsx}'], languageOptions: { ecmaVersion: 'latest', sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } } },
  { files: ['**/*.{ts,tsx,mts,cts}'], languageOptions: { parser: tsParser, parserOptions: { ecmaFeatures: { jsx: true } } } },
  security.configs.recommended,
]
