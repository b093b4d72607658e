// Lint: promises that nobody awaits (a failed journal write must never go unnoticed) and the
// layering the code relies on. Formatting is prettier's (npm run format).
import tseslint from 'typescript-eslint';

/** What a layer may not import: the engine owns its contracts and knows no provider. */
const forbid = (layers, why) => ({
  'no-restricted-imports': ['error', { patterns: layers.map((layer) => ({ group: [`**/${layer}/**`, `**/${layer}.js`], message: why })) }],
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/out/**', 'bin/**', 'scripts/**', 'bench/**', 'eslint.config.js'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    // A function a reader can hold in one screen; longer ones are split where their steps are.
    files: ['src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 60 }] },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: forbid(['resources', 'lookups', 'providers', 'sandbox', 'cli'], 'the engine depends only on its own contracts (src/engine/contracts); a type or provider supplies a hook instead'),
  },
  {
    files: ['src/kernel/**/*.ts'],
    rules: forbid(['engine', 'manifest', 'resources', 'lookups', 'providers', 'state', 'sandbox', 'cli'], 'the kernel is what every layer shares: it imports nothing else of plumb'),
  },
  {
    files: ['src/sandbox/**/*.ts'],
    rules: forbid(['engine', 'resources', 'lookups', 'providers', 'cli', 'state'], 'a sandbox is written from the vendor documentation and shares no code with plumb'),
  },
  {
    files: ['src/resources/**/*.ts', 'src/lookups/**/*.ts', 'src/providers/**/*.ts', 'src/state/**/*.ts'],
    rules: forbid(['cli', 'sandbox'], 'providers, resources, lookups and state do not depend on the command line or the sandbox'),
  },
);
