import type { AuthorizationErrorCode } from '../common/errors/oauth-error';

/**
 * What a step of a page flow comes to, as the services and errors of the flows say it: which page to
 * show and the facts it shows, or a redirect. They return plain data and never build a page; src/web
 * turns an outcome into its page (sendOutcome in responses.ts, the builders in pages/).
 */
export type FlowOutcome =
  | RedirectOutcome
  | SignInOutcome
  | SecondFactorOutcome
  | ConsentOutcome
  | FormPostOutcome
  | DeviceCodeOutcome
  | DeviceDoneOutcome
  | RequestErrorOutcome
  | FormErrorOutcome
  | HeldErrorOutcome;

/** Back to the client, or to a page of this site (see `redirect` for the status). */
export interface RedirectOutcome {
  kind: 'redirect';
  location: string;
  status?: 302 | 303;
}

/**
 * What every form of the flow posts back untouched: the CSRF token, and either the sealed pending
 * authorization request or, for a sign-in asked for by an account page, the page to return to.
 */
export interface FormState {
  csrfToken: string;
  transaction?: string;
  returnTo?: string;
  /** The device flow's consent form: the user code it decides on (RFC 8628 §3.3), normalised. */
  userCode?: string;
  /** The code step of a sign-in: its sealed password step (docs/second-factor.md). */
  secondFactor?: string;
}

/**
 * The sign-in page, for an application (`clientName`, whose redirect origin the form may end up at) or
 * for an account page (no client, `form.returnTo`); `refused`: the attempt it answers (400, or 429 with
 * Retry-After).
 */
export interface SignInOutcome {
  kind: 'sign_in';
  clientName?: string;
  redirectOrigin?: string;
  form: FormState;
  email?: string;
  refused?: { problem: 'invalid_credentials' | 'sign_in_expired' | 'passkey_refused' | 'passkey_needed' | 'passkey_unverified' } | { problem: 'throttled'; retryAfterSeconds: number };
  /** Set for an unverified application: the host of this request's redirect URI, named as its consent page names it. */
  unverified?: { redirectHost: string };
  /** The options of **Sign in with a passkey** and of the email field's passkey autofill (JSON). */
  passkeyOptions?: string;
  /** Which links to the self-service pages the sign-in page shows (README.md, Your account). */
  selfService?: SelfServiceLinks;
  /** Said above the form: the password was just reset (the reset link's page sends here). */
  notice?: 'password_reset';
}

/** Sign-up when `SIGN_UP` is open and mail is on; a forgotten password when mail is on. */
export interface SelfServiceLinks {
  signUp: boolean;
  forgotPassword: boolean;
}

/**
 * The code step of a sign-in (docs/second-factor.md): the password was right and the account asks for an
 * authenticator or recovery code; `form.secondFactor` carries the sealed password step. `refused`: the
 * code it answers was wrong (400), or too many were (429 with `Retry-After`).
 */
export interface SecondFactorOutcome {
  kind: 'second_factor';
  clientName?: string;
  redirectOrigin?: string;
  form: FormState;
  refused?: { problem: 'invalid_code' } | { problem: 'throttled'; retryAfterSeconds: number };
  /** An application asked for a second factor (acr_values) of a session signed in already: no password was just given. */
  stepUp?: boolean;
}

/** The consent page, of the code flow or of the device flow (no redirect origin there). */
export interface ConsentOutcome {
  kind: 'consent';
  clientName: string;
  userLabel: string;
  scopes: string[];
  redirectOrigin?: string;
  form: FormState;
  /** An unverified application: the host of the redirect URI, or, in the device flow, that the device gets the access. */
  unverified?: { redirectHost: string; clientIdHost?: string } | { device: true };
  /** The device flow: the code the user entered, to compare with the device's screen. */
  userCode?: string;
}

/** The authorization response posted to the redirect URI (OAuth 2.0 Form Post Response Mode §2). */
export interface FormPostOutcome {
  kind: 'form_post';
  redirectUri: string;
  fields: Record<string, string | undefined>;
}

/** The device flow's form for the user code (RFC 8628 §3.3); `refused`: why the last code was not taken. */
export interface DeviceCodeOutcome {
  kind: 'device_code';
  csrfToken: string;
  userCode?: string;
  refused?: { problem: 'wrong_code' } | { problem: 'throttled'; retryAfterSeconds: number };
}

/** After the decision on a device's request: back to the device. */
export interface DeviceDoneOutcome {
  kind: 'device_done';
  clientName: string;
  approved: boolean;
}

/** Why an authorization request cannot be answered with a redirect (RFC 6749 §4.1.2.1). */
export type RequestProblem =
  | 'missing_client_id'
  | 'unknown_client'
  | 'repeated_client_id'
  | 'missing_redirect_uri'
  | 'unregistered_redirect_uri'
  | 'repeated_redirect_uri'
  /** RFC 9126 §4: a request_uri that is unknown, expired, already used or pushed by another client. */
  | 'unknown_request_uri'
  | 'repeated_request_uri'
  /** A `client_id` URL whose Client ID Metadata Document could not be fetched or is not valid (docs/integrate-with-oauth.md). */
  | 'client_metadata_invalid';

/** Why a form post of the sign-in or consent page was refused. */
export type FormProblem = 'csrf' | 'cross_site' | 'transaction';

/**
 * The flow a refused page belongs to, when it has a page of its own to go back to: the device flow's
 * error pages send the user back to `/device` (RFC 8628 §3.3), with advice about the code, not the application.
 */
export type PageFlow = 'device';

/** An authorization request that cannot be redirected: a page, no link back. */
export interface RequestErrorOutcome {
  kind: 'request_error';
  problem: RequestProblem;
  /** The technical reason, as the OAuth error_description would say it (English), shown below the problem. */
  detail?: string;
}

/** A refused form post of the flow (CSRF, cross-site, expired request). */
export interface FormErrorOutcome {
  kind: 'form_error';
  problem: FormProblem;
  flow?: PageFlow;
}

/**
 * The error of an unverified application, held on a page instead of redirected (RFC 9700 §4.11.2):
 * `location` is the redirect it would have been; `formPost`, the fields a form post response would post.
 */
export interface HeldErrorOutcome {
  kind: 'held_error';
  clientName: string;
  error: AuthorizationErrorCode;
  location: string;
  formPost?: { redirectUri: string; fields: Record<string, string | undefined> };
}
