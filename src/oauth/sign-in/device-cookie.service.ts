import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appConfig, authConfig } from '../../config/configuration';
import { SealedCookie } from '../../common/http/shown-once-cookie';

export const DEVICE_COOKIE = 'sp_device';
/** How long a browser stays known to an account after a sign-in with its password. */
export const DEVICE_COOKIE_TTL_SECONDS = 180 * 24 * 3600;

/** What a device cookie says: this browser signed in to account `uid`; `nonce` names its own counter. */
export interface Device {
  uid: number;
  nonce: string;
}

/**
 * Device cookies (OWASP "Slow Down Online Guessing Attacks with Device Cookies"): after a successful
 * sign-in with a password the browser gets a cookie binding it to that account, sealed like the session
 * (AES-256-GCM under a key derived from SESSION_SECRET for this purpose alone, so it cannot be forged,
 * altered or passed off as a session) and `HttpOnly`, `SameSite=Lax`, `Secure` when PUBLIC_URL is https.
 * A later attempt on that account from that browser is counted on the cookie's own counter, not the
 * account's, so a stranger's wrong guesses that fill the account's counter never lock out the owner's
 * known browser (SECURITY.md, "Password guessing"). One cookie per browser: the last account signed in.
 */
@Injectable()
export class DeviceCookieService {
  private readonly cookie: SealedCookie<Device>;

  constructor(@Inject(authConfig.KEY) auth: ConfigType<typeof authConfig>, @Inject(appConfig.KEY) app: ConfigType<typeof appConfig>) {
    this.cookie = new SealedCookie(auth.sessionSecret, { name: DEVICE_COOKIE, purpose: 'device', path: '/', sameSite: 'lax', secure: app.secureCookies, ttlMs: DEVICE_COOKIE_TTL_SECONDS * 1000 });
  }

  /** The cookie as the browser sent it (not yet checked). */
  read(request: FastifyRequest): string | undefined {
    return this.cookie.read(request);
  }

  /** A new cookie with a new nonce, so each sign-in starts the browser's counter afresh. */
  issue(reply: FastifyReply, userId: number, now: number): void {
    this.cookie.write(reply, { uid: userId, nonce: randomBytes(16).toString('base64url') }, now);
  }

  /** What the cookie says, or null when it is absent, malformed, tampered with, sealed for another purpose or expired. */
  open(value: unknown, now: number): Device | null {
    const device = this.cookie.open(value, now);
    if (!device || !Number.isSafeInteger(device.uid) || typeof device.nonce !== 'string' || !/^[A-Za-z0-9_-]{22}$/.test(device.nonce)) return null;
    return { uid: device.uid, nonce: device.nonce };
  }
}
