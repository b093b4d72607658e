/** A certificate authority and a server certificate for 127.0.0.1 and localhost, made at run time with openssl. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Paths of the PEM files, and their contents. */
export interface TestCertificates {
  dir: string;
  caFile: string;
  certFile: string;
  keyFile: string;
  ca: string;
  cert: string;
  key: string;
}

const OPENSSL = '/usr/bin/openssl';

/** Makes a fresh CA and a server certificate it signed, in a new temporary folder. */
export function makeCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'plumb-tls-'));
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync(OPENSSL, args, { cwd: dir, stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '2', '-subj', '/CN=plumb test CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('server.key'), '-out', at('server.csr'), '-subj', '/CN=127.0.0.1');
  writeFileSync(at('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n');
  openssl('x509', '-req', '-in', at('server.csr'), '-CA', at('ca.pem'), '-CAkey', at('ca.key'), '-CAcreateserial', '-out', at('server.pem'), '-days', '2', '-extfile', at('server.ext'));
  return {
    dir,
    caFile: at('ca.pem'),
    certFile: at('server.pem'),
    keyFile: at('server.key'),
    ca: readFileSync(at('ca.pem'), 'utf8'),
    cert: readFileSync(at('server.pem'), 'utf8'),
    key: readFileSync(at('server.key'), 'utf8'),
  };
}
