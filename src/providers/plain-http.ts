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

const idle = new Map<string, Socket[]>();
/** What keeps an idle connection in the pool (and closes it when idle too long), removed when it is taken. */
const idleHooks = new WeakMap<Socket, () => void>();

/** Sends one request to an `http:` URL over a kept-alive connection. */
export function plainRequest(url: URL, init: HttpRequestInit): Promise<HttpResponse> {
  const body = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
  let head = `${init.method} ${url.pathname}${url.search} HTTP/1.1\r\nhost: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(init.headers)) {
    if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) return Promise.reject(new Error(`header ${name} holds a line break`));
    head += `${name}: ${value}\r\n`;
  }
  if (body) head += `content-length: ${body.length}\r\n`;
  else if (!['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(init.method)) head += 'content-length: 0\r\n';
  const request = body ? Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), body]) : Buffer.from(`${head}\r\n`, 'latin1');
  const key = url.host;
  const socket = takeIdle(key) ?? open(url);
  return exchange(socket, key, request, init.method === 'HEAD', init.timeoutMs ?? 300_000);
}

function takeIdle(key: string): Socket | undefined {
  const sockets = idle.get(key);
  while (sockets?.length) {
    const socket = sockets.pop() as Socket;
    idleHooks.get(socket)?.();
    if (!socket.destroyed && socket.readyState === 'open') return socket;
  }
  return undefined;
}

function open(url: URL): Socket {
  const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 80) });
  socket.setNoDelay(true);
  return socket;
}

function release(socket: Socket, key: string): void {
  socket.unref();
  const drop = () => {
    unhook();
    const sockets = idle.get(key);
    const at = sockets?.indexOf(socket) ?? -1;
    if (sockets && at >= 0) sockets.splice(at, 1);
  };
  const expire = () => socket.destroy();
  const unhook = () => {
    socket.removeListener('close', drop);
    socket.removeListener('error', drop);
    socket.removeListener('timeout', expire);
    socket.setTimeout(0);
    idleHooks.delete(socket);
  };
  socket.on('close', drop);
  socket.on('error', drop);
  socket.on('timeout', expire);
  socket.setTimeout(IDLE_MS);
  idleHooks.set(socket, unhook);
  const sockets = idle.get(key);
  if (sockets) sockets.push(socket);
  else idle.set(key, [socket]);
}

/** Writes the request and reads one response from the socket. */
function exchange(socket: Socket, key: string, request: Buffer, head: boolean, timeoutMs: number): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const parser = new ResponseParser(head);
    let done = false;
    const finish = (err: Error | undefined, response?: HttpResponse) => {
      if (done) return;
      done = true;
      socket.removeListener('data', onData);
      socket.removeListener('error', onError);
      socket.removeListener('close', onClose);
      socket.removeListener('timeout', onTimeout);
      socket.setTimeout(0);
      if (err) {
        socket.destroy();
        reject(err);
        return;
      }
      if (parser.reusable) release(socket, key);
      else socket.destroy();
      resolve(response as HttpResponse);
    };
    const onData = (chunk: Buffer) => {
      try {
        const response = parser.push(chunk);
        if (response) finish(undefined, response);
      } catch (err) {
        finish(err as Error);
      }
    };
    const onError = (err: Error) => finish(err);
    const onClose = () => {
      const response = parser.end();
      finish(response ? undefined : new Error('socket hang up'), response);
    };
    const onTimeout = () => finish(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`));
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('close', onClose);
    socket.on('timeout', onTimeout);
    socket.ref();
    socket.setTimeout(timeoutMs);
    socket.write(request);
  });
}

/**
 * Parses one HTTP/1.1 response from the bytes of a connection, as they arrive: bytes are only
 * joined while a head or a chunk-size line is incomplete, so a large body costs one copy.
 */
class ResponseParser {
  /** Unconsumed bytes of a head or chunk-size line cut across packets. */
  private pending: Buffer = Buffer.alloc(0);
  private status = 0;
  private headers: Record<string, string> | undefined;
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
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    this.headers = headers;
    const close = /\bclose\b/i.test(headers.connection ?? '');
    this.reusable = m[1] === '1' ? !close : /\bkeep-alive\b/i.test(headers.connection ?? '');
    if (this.head || this.status === 204 || this.status === 304 || this.status < 200) this.framing = 'none';
    else if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) this.framing = 'chunked';
    else if (headers['content-length'] !== undefined) {
      this.framing = 'length';
      this.expected = Number(headers['content-length']);
      if (!Number.isInteger(this.expected) || this.expected < 0) throw new Error(`bad content-length ${headers['content-length']}`);
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
    const headers = this.headers as Record<string, string>;
    const body = this.framing === 'length' ? Buffer.concat(this.body).subarray(0, this.expected) : Buffer.concat(this.body);
    return {
      status: this.status,
      ok: this.status >= 200 && this.status < 300,
      headers: { get: (name) => headers[name.toLowerCase()] ?? null },
      text: body.toString('utf8'),
    };
  }
}
