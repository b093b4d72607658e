// Lint: promises that nobody awaits (a failed journal write must never go unnoticed) and the
// layering the code relies on. Formatting is prettier's (npm run format).
import { dirname, relative, resolve } from 'node:path';
import tseslint from 'typescript-eslint';

/** What a layer may not import: the engine owns its contracts and knows no provider. A layer named `@scope/name` is a workspace package. */
const forbid = (layers, why) => ({
  'no-restricted-imports': ['error', { patterns: layers.map((layer) => ({ group: layer.startsWith('@') ? [layer, `${layer}/**`] : [`**/${layer}/**`, `**/${layer}.js`], message: why })) }],
});

/** The workspace package a file belongs to (`packages/<name>`), or the root's plumb. */
const packageOf = (file) => relative(import.meta.dirname, file).match(/^packages\/[^/]+/)?.[0] ?? 'plumb';

/**
 * A relative import stays inside its package: a workspace package (the sandbox) reaches nothing of
 * plumb's, and plumb reaches a package only through its name (`@plumb/sandbox`), that is through
 * what the package exports.
 */
const packageBoundary = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const home = packageOf(context.filename);
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const target = packageOf(resolve(dirname(context.filename), specifier));
      if (target === home) return;
      const message =
        home === 'plumb' ? `import ${target} through its package name, not a path into it` : `${home} is a package of its own: it imports nothing of ${target === 'plumb' ? "plumb's" : target}`;
      context.report({ node: node.source, message });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default tseslint.config(
  { ignores: ['**/dist/**', 'node_modules/**', 'bench/out/**', 'bin/**', 'scripts/**', 'bench/**', 'eslint.config.js'] },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.base],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { plumb: { rules: { 'package-boundary': packageBoundary } } },
    rules: {
      'plumb/package-boundary': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    // A function a reader can hold in one screen; longer ones are split where their steps are.
    files: ['src/**/*.ts', 'packages/*/src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 60 }] },
  },
  {
    files: ['src/engine/**/*.ts'],
    rules: forbid(['resources', 'lookups', 'providers', '@plumb/sandbox', 'cli'], 'the engine depends only on its own contracts (src/engine/contracts); a type or provider supplies a hook instead'),
  },
  {
    files: ['src/kernel/**/*.ts'],
    rules: forbid(['engine', 'manifest', 'resources', 'lookups', 'providers', 'state', '@plumb/sandbox', 'cli'], 'the kernel is what every layer shares: it imports nothing else of plumb'),
  },
  {
    files: ['src/resources/**/*.ts', 'src/lookups/**/*.ts', 'src/providers/**/*.ts', 'src/state/**/*.ts'],
    rules: forbid(['cli', '@plumb/sandbox'], 'providers, resources, lookups and state do not depend on the command line or the sandbox'),
  },
);
