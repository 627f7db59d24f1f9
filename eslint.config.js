// ESLint flat config. The `layers/boundaries` rule (scripts/eslint-layers.js) enforces the
// import table of docs/architecture.md; scripts/eslint-layers.test.ts proves each boundary.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import pluginVue from 'eslint-plugin-vue';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import layers from './scripts/eslint-layers.js';

export default defineConfig(
  {
    ignores: [
      'node_modules/**',
      'out/**',
      'dist/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results*.json',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  pluginVue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: {
      parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'], sourceType: 'module' },
    },
  },
  {
    // Everything outside renderer/ runs under Node (or anywhere, for engine/).
    files: ['**/*.{js,mjs,cjs,ts,mts,cts}'],
    ignores: ['renderer/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    plugins: { layers },
    rules: { 'layers/boundaries': 'error' },
  },
  {
    // The engine is pure: no host globals (the command-line entry and tests are exempt).
    files: ['engine/**'],
    ignores: ['engine/cli/**', '**/*.test.ts', '**/*.spec.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', 'require', 'module', '__dirname', '__filename', 'global'].map((name) => ({
          name,
          message: 'engine/ is pure: pass host values in from engine/cli/ or station/.',
        })),
        ...['window', 'document', 'navigator', 'localStorage'].map((name) => ({
          name,
          message: 'engine/ is pure: no browser globals.',
        })),
      ],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
);
