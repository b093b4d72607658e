// npm runs `prepare` in two places: `npm install` (and `npm install -g .`, `npm link`) in the
// checkout, which must build plumb; and `npx plumb` in the checkout, which links the checkout into
// npx's cache to run its bin (npm_command is then `exec`). That second one must not build: the
// command runs the CLI as last built, in well under a second, and leaves dist/ alone.

import { spawnSync } from 'node:child_process';

if (process.env.npm_command !== 'exec') {
  const npm = process.env.npm_execpath;
  const { status } = npm ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' }) : spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  process.exitCode = status ?? 1;
}
