import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { Clock } from '../../common/clock';
import { sha256Hex } from '../../common/crypto/secrets';
import { authConfig } from '../../config/configuration';
import { PushedRequestsRepository } from './pushed-requests.repository';

/** RFC 9126 §2.2: the URN prefix of a `request_uri` this server hands out. */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/** 32 base64url characters of 24 random bytes (192 bits; RFC 9126 §7.1 asks for enough to resist guessing). */
const REQUEST_URI_ID = /^[A-Za-z0-9_-]{32}$/;

/**
 * Pushed authorization requests (RFC 9126) in the shared database: `push` stores the parameters a
 * client sent to `/oauth/par` under a random `request_uri` (only its hash is kept), `use` hands them to
 * the authorize request that names it — once, to that client only, before it expires (the injected
 * Clock), with one conditional UPDATE, so two browsers (or two instances) racing with one request_uri
 * cannot both start an authorization from it.
 */
@Injectable()
export class PushedRequestsService {
  constructor(
    private readonly requests: PushedRequestsRepository,
    private readonly clock: Clock,
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
  ) {}

  /** Stores already validated parameters; returns the `request_uri` and its lifetime in seconds. */
  async push(clientId: number, parameters: Record<string, string>): Promise<{ requestUri: string; expiresIn: number }> {
    const id = randomBytes(24).toString('base64url');
    const now = this.clock.now();
    const expiresIn = this.auth.parTtlSeconds;
    await this.requests.insert({ idHash: sha256Hex(id), clientId, parameters: JSON.stringify(parameters), expiresAt: now + expiresIn * 1000, createdAt: now });
    return { requestUri: REQUEST_URI_PREFIX + id, expiresIn };
  }

  /**
   * The parameters pushed under `requestUri` by this client, marking it used; null when it is not one
   * of ours, unknown, expired, already used or another client's (RFC 9126 §4). Nothing changes then.
   */
  async use(clientId: number, requestUri: string): Promise<Record<string, string> | null> {
    if (!requestUri.startsWith(REQUEST_URI_PREFIX)) return null;
    const id = requestUri.slice(REQUEST_URI_PREFIX.length);
    if (!REQUEST_URI_ID.test(id)) return null;
    const now = this.clock.now();
    const parameters = await this.requests.take(sha256Hex(id), clientId, now);
    return parameters === null ? null : (JSON.parse(parameters) as Record<string, string>);
  }
}
