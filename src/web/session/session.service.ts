import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Clock } from '../../common/clock';
import { appConfig, authConfig } from '../../config/configuration';
import { EndedSessionsRepository } from './ended-sessions.repository';
import { CsrfTokens, Sealer } from '../../common/crypto/sealer';

export const SESSION_COOKIE = 'sp_session';
/**
 * The authorization flow (/oauth) and the account pages (/account) share one sign-in (README.md, Your account), so
 * the cookie goes to the whole site. The API itself never reads it: it authenticates by Bearer token
 * or API key only, so a cookie riding along grants nothing there.
 */
export const SESSION_COOKIE_PATH = '/';
/** How long a pending authorization request stays usable on the sign-in and consent pages. */
export const TRANSACTION_TTL_MS = 30 * 60 * 1000;

/** The browser's session with the authorization server, carried sealed in its cookie. */
export interface Session {
  /** Random per session; the CSRF token and pending transactions are bound to it. */
  sid: string;
  /** The signed-in user, absent before sign-in. */
  uid?: number;
  /** When the user signed in (epoch ms). */
  authAt?: number;
  /** RFC 8176: how the user signed in (`pwd`; `pwd`, `otp`, `mfa` with a code); the ID token's `amr`. */
  amr?: string[];
  /**
   * When the user last proved who they are on the confirm-access page (epoch ms), after `authAt`; absent:
   * the sign-in is the latest proof (SECURITY.md, "A borrowed session adding a way in").
   */
  provenAt?: number;
  exp: number;
}

/** A pending authorization request (docs/integrate-with-oauth.md), validated once and carried through the pages. */
export interface Transaction {
  /** The public client_id. */
  clientId: string;
  redirectUri: string;
  scope: string[];
  state?: string;
  codeChallenge?: string;
  codeChallengeMethod?: 'S256';
  /** `prompt=consent`: show the consent page even when a consent is remembered. */
  forceConsent: boolean;
  /** OIDC Core §3.1.2.1 `nonce`, for the ID token. */
  nonce?: string;
  /** OIDC Core §3.1.2.1 `max_age` (seconds): an older sign-in is asked again. */
  maxAge?: number;
  /** OIDC Core §3.1.2.1 `login_hint`: pre-fills the sign-in form's email. */
  loginHint?: string;
  /** RFC 8707: the resource the tokens are asked for (canonical), if the request named one. */
  resource?: string;
  /** `response_mode=form_post` (OAuth 2.0 Form Post Response Mode): the response is posted, not redirected. */
  responseMode?: 'form_post';
  /** OIDC Core §3.1.2.1 `acr_values` asked for MFA_ACR (src/oauth/acr.ts): no code without two factors. */
  acr?: string;
}

interface SealedTransaction extends Transaction {
  sid: string;
}

/**
 * The sign-in session: a sealed (AES-256-GCM) cookie, `HttpOnly`, `SameSite=Lax`, `Secure` when
 * PUBLIC_URL is https. Every instance that shares SESSION_SECRET reads it, so no sticky sessions are
 * needed. The one server-side state is the list of signed-in sessions ended by a sign-out before their
 * cookie expired (`ended_sessions`, in the shared database): a copy of the cookie taken earlier (another
 * tab, a stolen one) opens, but is refused on every instance. The pending authorization request travels
 * in a sealed hidden form field bound to the session id, so two tabs can authorize two clients at once.
 */
@Injectable()
export class SessionService {
  private readonly sessions: Sealer;
  private readonly transactions: Sealer;
  private readonly csrf: CsrfTokens;
  /** The session each request carried, read once: the form guard and the handler after it ask for it both. */
  private readonly readOnce = new WeakMap<FastifyRequest, Promise<Session | null>>();

  constructor(
    @Inject(authConfig.KEY) private readonly auth: ConfigType<typeof authConfig>,
    @Inject(appConfig.KEY) private readonly app: ConfigType<typeof appConfig>,
    private readonly ended: EndedSessionsRepository,
    private readonly clock: Clock,
  ) {
    this.sessions = new Sealer(auth.sessionSecret, 'session');
    this.transactions = new Sealer(auth.sessionSecret, 'transaction');
    this.csrf = new CsrfTokens(auth.sessionSecret);
  }

  /** The browser's session, or null when it has none, or one that is malformed, expired or signed out. */
  read(request: FastifyRequest): Promise<Session | null> {
    let session = this.readOnce.get(request);
    if (session === undefined) this.readOnce.set(request, (session = this.open(request)));
    return session;
  }

  private async open(request: FastifyRequest): Promise<Session | null> {
    const cookie = (request.cookies as Record<string, string | undefined> | undefined)?.[SESSION_COOKIE];
    const session = this.sessions.open<Session>(cookie, this.clock.now());
    if (!session || typeof session.sid !== 'string') return null;
    // Only a signed-in session can have been signed out: an anonymous one costs no database read.
    // Signed out, or begun before a password reset or change of the account: refused on every instance.
    if (session.uid !== undefined && (await this.ended.isEnded(session.sid, session.uid, session.authAt ?? 0))) return null;
    return session;
  }

  /** A new anonymous session (its cookie set on the reply), for a browser that has none. */
  start(reply: FastifyReply): Session {
    return this.write(reply, { sid: newSessionId() });
  }

  /**
   * A fresh session for the user who just signed in: a new id, so a session id planted before
   * sign-in (session fixation) is worthless afterwards. A signed-in session it replaces (a sign-in again
   * for `prompt=login` or `max_age`, or as another user) is ended like a sign-out, so a copy of the
   * earlier cookie stops working too (OWASP ASVS 5.0 V7.2.4, SECURITY.md). `authAt` is when the first
   * factor was checked, read before the account was: a password reset committed while the sign-in was
   * under way is later than it, so the session it makes is ended like every other.
   */
  async signIn(reply: FastifyReply, userId: number, amr: string[], replaced: Session | null = null, authAt = this.clock.now()): Promise<Session> {
    if (replaced?.uid !== undefined) await this.end(replaced);
    return this.write(reply, { sid: newSessionId(), uid: userId, authAt, amr });
  }

  /**
   * Ends the session: a signed-in one is recorded as ended until its cookie would expire, so no copy of
   * the cookie opens again on any instance; then the cookie is cleared, and the session's id (so its
   * CSRF token) is gone with it. Recorded first: if the database refuses, the sign-out fails visibly
   * instead of leaving a live copy behind.
   */
  async signOut(session: Session | null, reply: FastifyReply): Promise<void> {
    if (session?.uid !== undefined) await this.end(session);
    this.readOnce.delete(reply.request);
    reply.clearCookie(SESSION_COOKIE, { path: SESSION_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: this.app.secureCookies });
  }

  /** Records a signed-in session as ended until its cookie would expire, on every instance. */
  private async end(session: Session): Promise<void> {
    await this.ended.record(session.sid, session.exp);
  }

  /** The instant of the session's latest proof of who is using it: its sign-in, or a later confirmation of access. */
  provenAt(session: Session): number {
    return Math.max(session.provenAt ?? 0, session.authAt ?? 0);
  }

  /**
   * Records a proof given now (the password, a passkey or a code on the confirm-access page): the same
   * session (its id, so its CSRF token, its sign-in time and its expiry), the cookie rewritten. Not a
   * new sign-in: the session does not last longer for it.
   */
  proved(reply: FastifyReply, session: Session): Session {
    const { exp, ...data } = session;
    return this.write(reply, { ...data, provenAt: this.clock.now() }, exp);
  }

  csrfToken(session: Session): string {
    return this.csrf.issue(session.sid);
  }

  verifyCsrf(session: Session | null, token: unknown): boolean {
    return session !== null && this.csrf.verify(session.sid, token);
  }

  sealTransaction(transaction: Transaction, session: Session): string {
    return this.transactions.seal({ ...transaction, sid: session.sid }, this.clock.now() + TRANSACTION_TTL_MS);
  }

  /** The pending request, or null when it is malformed, expired or belongs to another session. */
  openTransaction(value: unknown, session: Session): Transaction | null {
    if (typeof value !== 'string') return null;
    const opened = this.transactions.open<SealedTransaction>(value, this.clock.now());
    if (!opened || opened.sid !== session.sid) return null;
    const { sid: _sid, exp: _exp, ...transaction } = opened;
    return transaction;
  }

  private write(reply: FastifyReply, data: Omit<Session, 'exp'>, exp = this.clock.now() + this.auth.sessionTtlSeconds * 1000): Session {
    this.readOnce.delete(reply.request);
    const session: Session = { ...data, exp };
    reply.setCookie(SESSION_COOKIE, this.sessions.seal(data, session.exp), {
      path: SESSION_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.app.secureCookies,
      maxAge: Math.max(1, Math.ceil((exp - this.clock.now()) / 1000)),
    });
    return session;
  }
}

function newSessionId(): string {
  return randomBytes(16).toString('base64url');
}
