import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** How much of a refused body the service still reads after its answer, and for how long, at most. */
export interface LingerBounds {
  maxBytes: number;
  maxMs: number;
}

/** nginx's `lingering_time` is 30 s; a body over the limit is read for a third of that, and 16 MiB at most. */
export const LINGER_BOUNDS: LingerBounds = { maxBytes: 16 * 1024 * 1024, maxMs: 10_000 };

/**
 * A lingering close, as nginx does it (`lingering_close`): the service answered before it read the
 * whole request body (413 for a body over BODY_LIMIT_BYTES, read only up to the limit or not at all
 * when Content-Length says so). Closing the socket at once, as Node does after a `Connection: close`
 * answer, makes the client's TCP stack answer the bytes it is still sending with a reset, which may throw
 * away the answer before the client reads it: the client sees "connection reset" instead of 413.
 *
 * So the answer says `Connection: close`, and once it is written the service half-closes the socket (FIN
 * after the answer; the socket was made with `allowHalfOpen`, as every Node HTTP server's is) and keeps
 * reading and discarding the rest of the body: the connection closes when the body ends, or after
 * `maxBytes` more bytes or `maxMs`, whichever comes first, so a client that never stops sending holds a
 * socket only that long. Call it before the answer is sent.
 */
export function lingerAfterAnswer(request: IncomingMessage, bounds: LingerBounds = LINGER_BOUNDS): void {
  const socket = request.socket as Socket & { destroySoon?: () => void };
  if (request.complete || socket.destroyed) return;
  let read = 0;
  let timer: NodeJS.Timeout | undefined;
  const close = () => {
    if (timer) clearTimeout(timer);
    socket.destroy();
  };
  // Node's server calls destroySoon once the last answer of a connection is written (see
  // `resOnFinish` in node:_http_server): instead, end only the sending half and linger.
  socket.destroySoon = () => {
    socket.end();
    if (request.complete) return close();
    timer = setTimeout(close, bounds.maxMs);
    timer.unref();
    request.on('end', close);
  };
  request.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > bounds.maxBytes) close();
  });
  request.on('error', close);
  request.resume();
}
