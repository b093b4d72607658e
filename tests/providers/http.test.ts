import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRequest } from '../../src/providers/http.js';
import { makeCertificates } from '../support/tls.js';

/** Answers by path, the way different servers frame bodies; records what each request carried. */
let server: Server;
let base: string;
const seen: Array<{ method?: string; url?: string; body: string; authorization?: string }> = [];
let connections = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, body, authorization: req.headers.authorization });
      if (req.url === '/length') res.end(JSON.stringify({ framed: 'length', body }));
      else if (req.url === '/chunked') {
        res.writeHead(200, { 'content-type': 'application/json' });
        // Several chunks, written apart, so they arrive in separate packets.
        res.write('{"framed":');
        setTimeout(() => res.end('"chunked", "text": "ünïcødé"}'), 10);
      } else if (req.url === '/empty') res.writeHead(204).end();
      else if (req.url === '/moved') res.writeHead(303, { location: '/length' }).end();
      else if (req.url === '/elsewhere') res.writeHead(307, { location: `http://localhost:${(server.address() as AddressInfo).port}/length` }).end();
      else if (req.url === '/big') res.end('x'.repeat(3_000_000));
      else res.writeHead(404).end('no');
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('the HTTP transport', () => {
  it('reads length-framed, chunked and empty bodies, and keeps the connection for the next call', async () => {
    connections = 0;
    const length = await sendRequest(new URL(`${base}/length`), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(JSON.parse(length.text)).toEqual({ framed: 'length', body: '{"a":1}' });
    const chunked = await sendRequest(new URL(`${base}/chunked`), { method: 'GET', headers: {} });
    expect(JSON.parse(chunked.text)).toEqual({ framed: 'chunked', text: 'ünïcødé' });
    const empty = await sendRequest(new URL(`${base}/empty`), { method: 'DELETE', headers: {} });
    expect([empty.status, empty.ok, empty.text]).toEqual([204, true, '']);
    const missing = await sendRequest(new URL(`${base}/nothing`), { method: 'GET', headers: {} });
    expect([missing.status, missing.ok, missing.text, missing.headers.get('Transfer-Encoding')]).toEqual([404, false, 'no', 'chunked']);
    expect(connections).toBe(1);
  });

  it('reads a large body whole', async () => {
    const big = await sendRequest(new URL(`${base}/big`), { method: 'GET', headers: {} });
    expect(big.text.length).toBe(3_000_000);
  });

  it('follows a 303 as fetch does: a GET without the body', async () => {
    seen.length = 0;
    const moved = await sendRequest(new URL(`${base}/moved`), { method: 'POST', headers: { authorization: 'Bearer t' }, body: 'x' });
    expect(JSON.parse(moved.text)).toEqual({ framed: 'length', body: '' });
    expect(seen.map((s) => [s.method, s.url, s.authorization])).toEqual([
      ['POST', '/moved', 'Bearer t'],
      ['GET', '/length', 'Bearer t'],
    ]);
  });

  it('keeps the body and credentials on a 307, but sends no credentials to another origin', async () => {
    seen.length = 0;
    const moved = await sendRequest(new URL(`${base}/elsewhere`), { method: 'PUT', headers: { authorization: 'Bearer t' }, body: 'x' });
    expect(JSON.parse(moved.text)).toEqual({ framed: 'length', body: 'x' });
    expect(seen.map((s) => [s.method, s.url, s.authorization])).toEqual([
      ['PUT', '/elsewhere', 'Bearer t'],
      ['PUT', '/length', undefined],
    ]);
  });

  describe('over TLS', () => {
    let tls: TlsServer;
    let tlsBase: string;
    beforeAll(async () => {
      const certs = makeCertificates();
      tls = createTlsServer({ cert: certs.cert, key: certs.key }, (_req, res) => res.end('secret'));
      await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
      tlsBase = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      tls.closeAllConnections();
      await new Promise((r) => tls.close(r));
    });

    it('refuses a server whose certificate no trusted authority signed', async () => {
      await expect(sendRequest(new URL(`${tlsBase}/x`), { method: 'GET', headers: {} })).rejects.toThrow(/self-signed|unable to verify|self signed/i);
    });
  });

  describe('when a server breaks off', () => {
    let raw: TcpServer;
    let rawBase: string;
    beforeAll(async () => {
      // Sends a head promising more than it delivers, then closes.
      raw = createTcpServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nshort')));
      await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
      rawBase = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    });
    afterAll(async () => new Promise((r) => raw.close(r)));

    it('rejects a cut-short answer, and a refused connection, with the cause', async () => {
      await expect(sendRequest(new URL(`${rawBase}/x`), { method: 'GET', headers: {} })).rejects.toThrow(/socket hang up/);
      await expect(sendRequest(new URL('http://127.0.0.1:1/x'), { method: 'GET', headers: {} })).rejects.toThrow(/ECONNREFUSED/);
    });
  });

  describe('when a server never answers', () => {
    let silent: TcpServer;
    let silentBase: string;
    beforeAll(async () => {
      silent = createTcpServer(() => {});
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
      silentBase = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      silent.close();
    });

    it('gives up once the exchange has been silent for its time limit', async () => {
      await expect(sendRequest(new URL(`${silentBase}/x`), { method: 'GET', headers: {}, timeoutMs: 200 })).rejects.toThrow(/no answer within/);
    });
  });
});
