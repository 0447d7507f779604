import { isIP, LookupFunction } from 'node:net';
import { Injectable } from '@nestjs/common';
import { Agent, request } from 'undici';
import { AddressResolver, FetchDeadline, ResolvedAddress } from './address-resolver';
import { isLoopbackAddress, isSpecialUseAddress } from './special-use-addresses';

/** draft-ietf-oauth-client-id-metadata-document §6.6 (Maximum Response Size): at most 5 KB is read. */
export const MAX_DOCUMENT_BYTES = 5 * 1024;
/** How long one fetch may take, from resolving the name to the last byte. */
export const FETCH_TIMEOUT_MS = 5000;

/** A fetch that gave no usable document; the message says why, for `error_description` and the error page. */
export class MetadataFetchError extends Error {}

export interface FetchedDocument {
  /** The parsed JSON body. */
  body: unknown;
  /** The response's `Cache-Control`, if any. */
  cacheControl: string | undefined;
}

/**
 * Fetches a Client ID Metadata Document (docs/integrate-with-oauth.md, "Clients identified by a URL";
 * SECURITY.md, "SSRF through client metadata"):
 * - the host is resolved first and EVERY address it has is checked: one special-use address (RFC 6890,
 *   special-use-addresses.ts) refuses the fetch before any connection;
 * - the connection goes to the address that was checked: the connector's `lookup` answers with it and
 *   never asks DNS again, so a name whose answer changes between the check and the connection (DNS
 *   rebinding) cannot reach an internal address; TLS still verifies the certificate for the host name;
 * - no redirect is followed (draft §4), only 200 is a document, only a JSON media type, at most 5 KB read
 *   (the body is cut off beyond it), and the whole fetch ends after 5 s.
 */
@Injectable()
export class MetadataDocumentFetcher {
  constructor(
    private readonly resolver: AddressResolver,
    private readonly deadline: FetchDeadline,
  ) {}

  /** `allowLoopback`: the URL is one CLIENT_METADATA_ALLOW_LOOPBACK lets through, and only loopback addresses are then accepted. */
  async fetch(url: URL, allowLoopback: boolean): Promise<FetchedDocument> {
    const timer = this.deadline.start(FETCH_TIMEOUT_MS);
    try {
      const address = await abortable(this.checkedAddress(url.hostname, allowLoopback), timer.signal);
      return await this.get(url, address, timer.signal);
    } catch (error) {
      if (error instanceof MetadataFetchError) throw error;
      if (timer.signal.aborted) throw new MetadataFetchError(`the client metadata document was not received within ${FETCH_TIMEOUT_MS / 1000} seconds`);
      throw new MetadataFetchError(`the client metadata document could not be fetched (${describe(error)})`);
    } finally {
      timer.clear();
    }
  }

  private async checkedAddress(hostname: string, allowLoopback: boolean): Promise<ResolvedAddress> {
    const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    let addresses: ResolvedAddress[];
    if (isIP(literal)) {
      addresses = [{ address: literal, family: isIP(literal) === 6 ? 6 : 4 }];
    } else {
      try {
        addresses = await this.resolver.resolve(hostname);
      } catch {
        addresses = [];
      }
    }
    // Every address, not only the one used: a name with one internal address among public ones is refused.
    // One message for a name that does not resolve and one that resolves inside: the answer never tells a
    // caller what this server's resolver knows of internal names, nor their addresses.
    const refused = addresses.length === 0 || addresses.some(({ address }) => (allowLoopback ? !isLoopbackAddress(address) : isSpecialUseAddress(address)));
    if (refused) {
      throw new MetadataFetchError(
        allowLoopback
          ? `the host ${hostname} of the client_id does not resolve to loopback addresses only`
          : `the host ${hostname} of the client_id does not resolve to public addresses only (loopback, private, link-local and other special-use addresses are never fetched from)`,
      );
    }
    return addresses[0];
  }

  private async get(url: URL, pinned: ResolvedAddress, signal: AbortSignal): Promise<FetchedDocument> {
    const lookup: LookupFunction = (_hostname, options, callback) => {
      // The checked address and nothing else: no second DNS answer can take its place.
      if (options.all) (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [pinned]);
      else callback(null, pinned.address, pinned.family);
    };
    const agent = new Agent({ connect: { lookup }, connections: 1, pipelining: 0 });
    try {
      const response = await request(url, {
        dispatcher: agent,
        method: 'GET',
        headers: { accept: 'application/json' },
        signal,
        // undici's request follows no redirect unless a redirect interceptor is added (none is).
      });
      try {
        if (response.statusCode !== 200) {
          const where = response.statusCode >= 300 && response.statusCode < 400 ? ' (redirects are not followed: serve the document at the client_id URL itself)' : '';
          throw new MetadataFetchError(`the client metadata document answered HTTP ${response.statusCode}, not 200${where}`);
        }
        const contentType = single(response.headers['content-type']);
        if (!isJsonMediaType(contentType)) {
          throw new MetadataFetchError(`the client metadata document has the content type ${contentType ?? '(none)'}, not application/json`);
        }
        const declared = Number(single(response.headers['content-length']));
        if (Number.isFinite(declared) && declared > MAX_DOCUMENT_BYTES) throw tooLarge();
        const text = await readAtMost(response.body, MAX_DOCUMENT_BYTES);
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          throw new MetadataFetchError('the client metadata document is not valid JSON');
        }
        return { body, cacheControl: single(response.headers['cache-control']) };
      } finally {
        // Whatever was not read is not waited for (the abort this causes is expected, not an error).
        response.body.on('error', () => undefined);
        response.body.destroy();
      }
    } finally {
      void agent.destroy().catch(() => undefined);
    }
  }
}

function tooLarge(): MetadataFetchError {
  return new MetadataFetchError(`the client metadata document is larger than ${MAX_DOCUMENT_BYTES} bytes`);
}

/** Reads the body up to `limit` bytes and stops: one byte more is an error, and nothing past it is read. */
async function readAtMost(body: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `application/json` with any parameters (`charset`), the one type docs/integrate-with-oauth.md accepts for a document. */
export function isJsonMediaType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(';')[0].trim().toLowerCase();
  return type === 'application/json';
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}

/** The promise, or the signal's abort, whichever comes first (a slow resolver is bounded by the same 5 s). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
