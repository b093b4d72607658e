import { connect, type Socket } from 'node:net';
import type { HttpRequestInit, HttpResponse } from './http.js';

/**
 * A small HTTP/1.1 client for plain-HTTP origins, which for plumb means the sandbox on this
 * machine: one write per request, a response parser for the three body framings (length,
 * chunked, until close) and a pool of kept-alive connections. Against a local API the cost of a
 * call is the client's own work, and node:http spends three times as much of it per call; TLS
 * origins (every real API) keep using node:https, whose cost hides behind the network.
 */

/** An idle connection closes after this long, before a server's usual 5 s keep-alive ends it. */
const IDLE_MS = 4000;

/** Idle connections by origin (`host:port`), the most recently used last. */
const idle = new Map<string, Connection[]>();

/** Sends one request to an `http:` URL over a kept-alive connection. */
export function plainRequest(url: URL, init: HttpRequestInit): Promise<HttpResponse> {
  let head = `${init.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const name of Object.keys(init.headers)) {
    const value = init.headers[name];
    if (LINE_BREAK.test(name) || LINE_BREAK.test(value)) return Promise.reject(new Error(`header ${name} holds a line break`));
    head += `${name}: ${value}\r\n`;
  }
  const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
  if (body) head += `content-length: ${body.length}\r\n`;
  else if (!['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(init.method)) head += 'content-length: 0\r\n';
  head += '\r\n';
  // One write per request. The head goes out as latin1, as HTTP reads it; the body as utf8.
  const request = body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
  const key = url.host;
  const connection = takeIdle(key) ?? new Connection(url, key);
  return connection.send(request, init.method === 'HEAD', init.timeoutMs ?? 300_000);
}

const LINE_BREAK = /[\r\n]/;

/** What every connection reads into; a read is handled whole before the next one comes. */
const READ_BUFFER = Buffer.allocUnsafe(65536);

function takeIdle(key: string): Connection | undefined {
  const connections = idle.get(key);
  while (connections?.length) {
    const connection = connections.pop() as Connection;
    if (connection.open) return connection;
  }
  return undefined;
}

/** What one request waits for on its connection. */
interface Exchange {
  parser: ResponseParser;
  timeoutMs: number;
  /** When bytes last moved for this exchange (the write, then each packet of the answer). */
  activeAt: number;
  resolve(response: HttpResponse): void;
  reject(err: Error): void;
}

/**
 * One kept-alive connection, carrying one exchange at a time. Its listeners and its inactivity
 * timer are set up once for the connection's life rather than per request: with a local server,
 * adding and removing them for every call was a noticeable part of the client's cost.
 */
class Connection {
  private readonly socket: Socket;
  private exchange: Exchange | undefined;

  constructor(url: URL, private readonly key: string) {
    this.socket = connect({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: Number(url.port || 80),
      // Bytes come straight from the socket into one buffer, not through a readable stream's
      // machinery (a good part of the cost of each answer from a local server). The parser
      // keeps some of them, and the buffer is read into again: it gets its own copy.
      onread: {
        buffer: READ_BUFFER,
        callback: (size: number, buffer: Uint8Array) => {
          this.onData(Buffer.from(buffer.subarray(0, size)));
          return true;
        },
      },
    });
    this.socket.setNoDelay(true);
    // Fires after IDLE_MS without traffic: closes an idle connection, and lets a waiting
    // exchange check its own (longer) time limit.
    this.socket.setTimeout(IDLE_MS);
    this.socket.on('error', (err) => this.onEnd(err));
    this.socket.on('close', () => this.onEnd());
    this.socket.on('timeout', () => this.onTimeout());
  }

  /** Whether the connection can take another request. */
  get open(): boolean {
    return !this.socket.destroyed && this.socket.readyState === 'open';
  }

  /** Writes the request and resolves with the response read back. */
  send(request: Buffer, head: boolean, timeoutMs: number): Promise<HttpResponse> {
    return new Promise((resolve, reject) => {
      this.exchange = { parser: new ResponseParser(head), timeoutMs, activeAt: Date.now(), resolve, reject };
      // A waiting exchange keeps the process alive; an idle connection does not.
      this.socket.ref();
      if (timeoutMs < IDLE_MS) this.socket.setTimeout(timeoutMs);
      this.socket.write(request);
    });
  }

  private onData(chunk: Buffer): void {
    const exchange = this.exchange;
    if (!exchange) {
      // Bytes nobody asked for: the connection is out of step with the server.
      this.socket.destroy();
      return;
    }
    exchange.activeAt = Date.now();
    let response: HttpResponse | undefined;
    try {
      response = exchange.parser.push(chunk);
    } catch (err) {
      this.fail(err as Error);
      return;
    }
    if (response) this.finish(response, exchange.parser.reusable);
  }

  private onEnd(err?: Error): void {
    this.dropFromPool();
    const exchange = this.exchange;
    if (!exchange) return;
    const response = err ? undefined : exchange.parser.end();
    if (response) this.finish(response, false);
    else this.fail(err ?? new Error('socket hang up'));
  }

  private onTimeout(): void {
    const exchange = this.exchange;
    if (!exchange) {
      this.socket.destroy();
      return;
    }
    if (Date.now() - exchange.activeAt >= exchange.timeoutMs) {
      this.fail(new Error(`no answer within ${Math.round(exchange.timeoutMs / 1000)} s`));
      return;
    }
    // A fired socket timer only comes back with traffic: arm it again for a silent server.
    this.socket.setTimeout(Math.min(IDLE_MS, exchange.timeoutMs));
  }

  private finish(response: HttpResponse, reusable: boolean): void {
    const exchange = this.exchange as Exchange;
    this.exchange = undefined;
    if (this.socket.timeout !== IDLE_MS) this.socket.setTimeout(IDLE_MS);
    if (reusable && this.open) {
      this.socket.unref();
      const connections = idle.get(this.key);
      if (connections) connections.push(this);
      else idle.set(this.key, [this]);
    } else this.socket.destroy();
    exchange.resolve(response);
  }

  private fail(err: Error): void {
    const exchange = this.exchange;
    this.exchange = undefined;
    this.socket.destroy();
    exchange?.reject(err);
  }

  private dropFromPool(): void {
    const connections = idle.get(this.key);
    const at = connections?.indexOf(this) ?? -1;
    if (connections && at >= 0) connections.splice(at, 1);
  }
}

/**
 * Parses one HTTP/1.1 response from the bytes of a connection, as they arrive: bytes are only
 * joined while a head or a chunk-size line is incomplete, so a large body costs one copy.
 */
class ResponseParser {
  /** Unconsumed bytes of a head or chunk-size line cut across packets. */
  private pending: Buffer = Buffer.alloc(0);
  private status = 0;
  private headers: Map<string, string> | undefined;
  private framing: 'none' | 'length' | 'chunked' | 'close' = 'none';
  private body: Buffer[] = [];
  private received = 0;
  private expected = 0;
  private chunk: 'size' | 'data' | 'crlf' | 'trailer' = 'size';
  private chunkLeft = 0;
  private done = false;
  /** Whether the connection may carry another request after this response. */
  reusable = false;

  constructor(private readonly head: boolean) {}

  /** Adds bytes; returns the response once it is complete. */
  push(bytes: Buffer): HttpResponse | undefined {
    let data = this.pending.length ? Buffer.concat([this.pending, bytes]) : bytes;
    this.pending = Buffer.alloc(0);
    while (!this.headers) {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) {
        if (data.length > 65_536) throw new Error('response headers too large');
        this.pending = data;
        return undefined;
      }
      this.readHead(data.subarray(0, end).toString('latin1'));
      data = data.subarray(end + 4);
      // An interim 1xx answer comes before the real one.
      if (this.status >= 100 && this.status < 200) this.headers = undefined;
    }
    if (this.framing === 'none') return this.response();
    if (this.framing === 'chunked') return this.chunks(data);
    this.take(data);
    if (this.framing === 'length' && this.received >= this.expected) return this.response();
    return undefined;
  }

  /** The connection closed: a body read until close is complete now; anything else is cut short. */
  end(): HttpResponse | undefined {
    if (this.done || this.framing !== 'close') return undefined;
    return this.response();
  }

  private readHead(text: string): void {
    const lines = text.split('\r\n');
    const m = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0]);
    if (!m) throw new Error(`not an HTTP response: ${lines[0].slice(0, 60)}`);
    this.status = Number(m[2]);
    // A Map rather than an object: storing keys not known in advance into a fresh object each
    // time is a slow, megamorphic path in a large process (it showed in profiles of big applies).
    const headers = new Map<string, string>();
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      const earlier = headers.get(name);
      headers.set(name, earlier === undefined ? value : `${earlier}, ${value}`);
    }
    this.headers = headers;
    const connection = headers.get('connection') ?? '';
    this.reusable = m[1] === '1' ? !/\bclose\b/i.test(connection) : /\bkeep-alive\b/i.test(connection);
    const length = headers.get('content-length');
    if (this.head || this.status === 204 || this.status === 304 || this.status < 200) this.framing = 'none';
    else if (/\bchunked\b/i.test(headers.get('transfer-encoding') ?? '')) this.framing = 'chunked';
    else if (length !== undefined) {
      this.framing = 'length';
      this.expected = Number(length);
      if (!Number.isInteger(this.expected) || this.expected < 0) throw new Error(`bad content-length ${length}`);
    } else {
      // No framing: the body runs until the server closes the connection.
      this.framing = 'close';
      this.reusable = false;
    }
  }

  private take(data: Buffer): void {
    if (!data.length) return;
    this.body.push(data);
    this.received += data.length;
  }

  private chunks(input: Buffer): HttpResponse | undefined {
    let data = input;
    while (data.length) {
      if (this.chunk === 'data') {
        const part = data.subarray(0, this.chunkLeft);
        this.take(part);
        this.chunkLeft -= part.length;
        data = data.subarray(part.length);
        if (this.chunkLeft === 0) this.chunk = 'crlf';
        continue;
      }
      const lineEnd = data.indexOf('\r\n');
      if (lineEnd < 0) {
        if (data.length > 65_536) throw new Error('chunk line too long');
        this.pending = data;
        return undefined;
      }
      const line = data.subarray(0, lineEnd).toString('latin1');
      data = data.subarray(lineEnd + 2);
      if (this.chunk === 'crlf') {
        if (line !== '') throw new Error('bad chunk end in response');
        this.chunk = 'size';
      } else if (this.chunk === 'size') {
        const size = parseInt(line, 16);
        if (!Number.isFinite(size) || size < 0) throw new Error('bad chunk size in response');
        this.chunkLeft = size;
        this.chunk = size === 0 ? 'trailer' : 'data';
      } else if (line === '') {
        // The empty line after the last chunk (and any trailers) ends the body.
        return this.response();
      }
    }
    return undefined;
  }

  private response(): HttpResponse {
    this.done = true;
    const headers = this.headers as Map<string, string>;
    const body = this.framing === 'length' ? Buffer.concat(this.body).subarray(0, this.expected) : Buffer.concat(this.body);
    return {
      status: this.status,
      ok: this.status >= 200 && this.status < 300,
      headers: { get: (name) => headers.get(name.toLowerCase()) ?? null },
      text: body.toString('utf8'),
    };
  }
}
