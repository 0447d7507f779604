import type { FastifyReply, FastifyRequest } from 'fastify';
import { Sealer } from '../crypto/sealer';

/** Where a sealed cookie goes and how long it lives; `secure` when PUBLIC_URL is https. */
export interface SealedCookieOptions {
  /** The cookie's name. */
  name: string;
  /** The sealer's purpose: a value sealed for one purpose never opens as another (see Sealer). */
  purpose: string;
  path: string;
  sameSite: 'strict' | 'lax';
  secure: boolean;
  ttlMs: number;
}

/**
 * A cookie whose value only this service can read or make: sealed with AES-256-GCM under a key derived
 * from SESSION_SECRET for its purpose alone, `HttpOnly`, limited to its path, so any instance can read
 * back what another wrote, with no server-side store. One class for every such cookie: the credentials
 * and recovery codes shown once (`holdFor`/`takeFor`, README.md, Register your application) and the
 * device cookie of the sign-in throttle (`write`/`open`, SECURITY.md, "Password guessing").
 */
export class SealedCookie<T extends object> {
  private readonly sealer: Sealer;

  constructor(
    secret: string,
    private readonly options: SealedCookieOptions,
  ) {
    this.sealer = new Sealer(secret, options.purpose);
  }

  /** The cookie as the browser sent it (not yet opened). */
  read(request: FastifyRequest): string | undefined {
    return (request.cookies as Record<string, string | undefined> | undefined)?.[this.options.name];
  }

  /** Sets the cookie to `value`, sealed with its expiry (`now` + ttl, epoch ms). */
  write(reply: FastifyReply, value: T, now: number): void {
    reply.setCookie(this.options.name, this.sealer.seal(value, now + this.options.ttlMs), { ...this.attributes(), maxAge: Math.floor(this.options.ttlMs / 1000) });
  }

  /** What a value says, or null when it is absent, malformed, tampered with, sealed for another purpose or expired. */
  open(value: unknown, now: number): T | null {
    if (typeof value !== 'string') return null;
    const opened = this.sealer.open<T>(value, now);
    if (opened === null) return null;
    const { exp: _exp, ...payload } = opened;
    return payload as unknown as T;
  }

  /**
   * Post/Redirect/Get for what is shown once: the post that made it answers 303 and `value` travels to
   * that one GET, bound to the sign-in session `sid` (sealed beside `value`'s fields). No instance keeps
   * it; any instance can show it.
   */
  holdFor(reply: FastifyReply, sid: string, value: T, now: number): void {
    reply.setCookie(this.options.name, this.sealer.seal({ sid, ...value }, now + this.options.ttlMs), { ...this.attributes(), maxAge: Math.floor(this.options.ttlMs / 1000) });
  }

  /**
   * What `holdFor` held, taken: the cookie is cleared on this reply whatever it held, so a reload, the
   * back button or a bookmark shows the page without it. A cookie of another session (signed in again,
   * or another user on the same browser), expired or tampered with yields null; no cookie, undefined.
   */
  takeFor(request: FastifyRequest, reply: FastifyReply, sid: string, now: number): T | null | undefined {
    const cookie = this.read(request);
    if (cookie === undefined) return undefined;
    reply.clearCookie(this.options.name, this.attributes());
    const held = this.sealer.open<T & { sid: unknown }>(cookie, now);
    if (held === null || held.sid !== sid) return null;
    const { sid: _sid, exp: _exp, ...value } = held;
    return value as unknown as T;
  }

  private attributes() {
    return { path: this.options.path, httpOnly: true, sameSite: this.options.sameSite, secure: this.options.secure };
  }
}
