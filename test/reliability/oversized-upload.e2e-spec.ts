import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { LINGER_BOUNDS } from '../../src/common/http/lingering-close';
import { startTestApp, TestApp } from '../helpers/test-app';

/** What a client that uploads a body in chunks, as a real one does, got back. */
interface Upload {
  status?: number;
  body?: string;
  /** The socket error, if the connection failed (ECONNRESET, EPIPE). */
  error?: string;
  /** Whether that error came before the whole answer was read. */
  errorBeforeAnswer: boolean;
  /** Bytes of the body written before the connection ended. */
  sent: number;
}

const CHUNK = Buffer.alloc(64 * 1024, 'a');

/**
 * POSTs `total` bytes in 64 KiB chunks, waiting for the socket to drain between them, with Node's http
 * client; with `declared`, the Content-Length says the size up front, otherwise it is chunked. Like many
 * clients (Python's requests, a form post in a slow browser), it reads the answer once it has sent the
 * body: an answer the server sends early waits in the client's socket buffer meanwhile.
 */
function upload(base: string, path: string, type: string, total: number, declared: boolean): Promise<Upload> {
  const url = new URL(path, base);
  return new Promise((resolve) => {
    const result: Upload = { errorBeforeAnswer: false, sent: 0 };
    let answered = false;
    const headers: Record<string, string | number> = { 'content-type': type };
    if (declared) headers['content-length'] = total;
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, agent: false });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        result.status = res.statusCode;
        result.body = Buffer.concat(chunks).toString('utf8');
        answered = true;
      });
      res.on('error', () => undefined);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      result.error ??= error.code ?? error.message;
      if (!answered) result.errorBeforeAnswer = true;
    });
    req.on('close', () => resolve(result));
    req.on('socket', (socket) => {
      socket.pause();
      req.on('finish', () => socket.resume());
    });
    const write = (): void => {
      while (result.sent < total && !req.destroyed) {
        const ok = req.write(CHUNK);
        result.sent += CHUNK.length;
        if (!ok) {
          req.once('drain', write);
          return;
        }
      }
      if (!req.destroyed) req.end();
    };
    write();
  });
}

/**
 * SECURITY.md, "Oversized requests": a body over BODY_LIMIT_BYTES is answered 413 in the endpoint's
 * shape, and the client reads that answer while it is still sending, instead of a connection reset; the
 * service reads and discards the rest only up to a bound (src/common/http/lingering-close.ts).
 */
describe('an upload over BODY_LIMIT_BYTES (SECURITY.md, Oversized requests)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  const FIVE_MB = 5 * 1024 * 1024;

  it.each([
    ['chunked', false],
    ['with its Content-Length', true],
  ])('answers a 5 MB upload sent %s with a 413 the client reads, every time', async (_how, declared) => {
    for (let i = 0; i < 10; i++) {
      const got = await upload(t.url, '/oauth/token', 'application/x-www-form-urlencoded', FIVE_MB, declared);
      expect({ i, status: got.status, errorBeforeAnswer: got.errorBeforeAnswer }).toEqual({ i, status: 413, errorBeforeAnswer: false });
      expect(JSON.parse(got.body!)).toEqual({ error: 'invalid_request', error_description: 'The request body is larger than allowed.' });
    }
    // A page's form the same way, answered with its page.
    const page = await upload(t.url, '/account/sign-up', 'application/x-www-form-urlencoded', FIVE_MB, declared);
    expect([page.status, page.errorBeforeAnswer]).toEqual([413, false]);
    expect(page.body).toMatch(/^<!doctype html>/);
  });

  it('cuts a client that never stops sending once the bound is read, after it could read the 413', async () => {
    const url = new URL(t.url);
    // It keeps sending after the server's FIN, as a client busy uploading does.
    const socket = connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true });
    let received = '';
    let sent = 0;
    let error: string | undefined;
    socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code));
    socket.write(`POST /oauth/token HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n`);
    const chunk = Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from('\r\n')]);
    const write = (): void => {
      while (!socket.destroyed) {
        sent += CHUNK.length;
        if (!socket.write(chunk)) return void socket.once('drain', write);
      }
    };
    write();
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    expect(received).toContain('"error":"invalid_request"');
    expect(error).toMatch(/^(ECONNRESET|EPIPE)$/);
    // The body limit, the bound, and what the two sockets' buffers held at most.
    expect(sent).toBeGreaterThan(LINGER_BOUNDS.maxBytes);
    expect(sent).toBeLessThan(64 * 1024 + LINGER_BOUNDS.maxBytes + 16 * 1024 * 1024);
  });
});
