import { toASCII } from 'tr46';

/**
 * Why a typed address is refused. Each has its own sentence on the pages (tr and en) and on the CLI, so
 * the person knows what to type instead (README.md, Your account; SECURITY.md, "One mailbox, one address").
 */
export type EmailProblem =
  | 'missing'
  | 'too_long'
  | 'not_an_address'
  | 'control'
  | 'invisible'
  | 'space'
  | 'encoded_word'
  | 'quoted'
  | 'non_ascii_local'
  | 'ip_literal'
  | 'domain';

export type CanonicalEmail = { ok: true; email: string } | { ok: false; problem: EmailProblem };

/** One line for the CLI's stderr (the pages say the same in the reader's language, self-service-messages.ts). */
export const EMAIL_PROBLEM_TEXT: Record<EmailProblem, string> = {
  missing: 'no address was given',
  too_long: 'an address has at most 254 characters (64 before the @)',
  not_an_address: 'it is not an email address (name@example.com: letters, digits and . _ + - before the @, a domain after it)',
  control: 'it contains a control character',
  invisible: 'it contains an invisible or formatting character (a soft hyphen, a zero-width space or a direction mark); type it again by hand',
  space: 'it contains a space',
  encoded_word: 'it is MIME-encoded (=?…?=); give the address itself',
  quoted: 'a quoted part before the @ ("…"@) is not accepted',
  non_ascii_local: 'the part before the @ may only use ASCII letters, digits and . _ + - and the like',
  ip_literal: 'an IP address in place of a domain is not accepted',
  domain: 'the part after the @ is not a valid domain name',
};

/** An address with this as its canonical form is refused with that reason. */
export class EmailRefusedError extends Error {
  constructor(readonly problem: EmailProblem) {
    super(`Invalid email address: ${EMAIL_PROBLEM_TEXT[problem]}`);
  }
}

// C0 and C1 controls and DEL (Unicode Cc).
const CONTROL = /\p{Cc}/u;
// Characters a reader cannot see or that change how others are shown (Unicode Cf: soft hyphen, zero-width
// characters, bidi controls; every Default_Ignorable_Code_Point: variation selectors, the combining
// grapheme joiner, Hangul fillers), and separators other than the plain space, unassigned, private-use
// and lone surrogate code points. UTS #46 drops many of these from a domain without a word, which is how
// `exam\u00ADple.com` became a second account for the mailbox of `example.com`.
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}\p{Cn}\p{Co}\p{Cs}]|(?![ ])\p{Zs}/u;
// RFC 2047 §2 encoded words (`=?charset?B|Q?text?=`): mail software decodes them into another address.
const ENCODED_WORD = /=\?[^?]*\?[a-z]\?[^?]*\?=/i;
// RFC 5322 §3.2.3 dot-atom of atext, the unquoted local part.
const DOT_ATOM = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i;
// The last label of a public domain: letters, or an A-label.
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/**
 * UTS #46 with every check on (RFC 5891 §4.2.3 hyphens, RFC 5893 bidi, RFC 5892 joiners, STD3 host name
 * characters, DNS lengths) and nontransitional processing, as WHATWG URL and today's browsers map a
 * domain: `ÖRNEK.com`, `örnek.com` and `xn--rnek-4qa.com` are one domain.
 */
const UTS46 = { checkBidi: true, checkHyphens: true, checkJoiners: true, useSTD3ASCIIRules: true, verifyDNSLength: true, transitionalProcessing: false } as const;

/**
 * The one canonical form of a typed address (README.md, Your account; SECURITY.md, "One mailbox, two accounts"), or why it is refused: the domain
 * lower-cased and mapped to ASCII with UTS #46, the local part as a mail server delivers it, lower-cased.
 * Every place an address comes in (sign-up, forgot password, change of address, sign-in, the CLI, the
 * seeds) goes through here, and uniqueness, the "account exists" mail and the mail budgets use its
 * result, so two spellings of one mailbox are one account. Idempotent: the canonical form of a canonical
 * form is itself. Only plain spaces around the address are forgiven (a form's stray space).
 *
 * Refused, because a mail server delivers them to a mailbox another spelling also reaches, or because
 * they only serve to deceive: quoted local parts (`"bob"@`), non-ASCII local parts, invisible and
 * format characters, control characters, RFC 2047 encoded words, IP literals (`[1.2.3.4]`, or a bare
 * IPv4 address as the domain), and domains UTS #46 refuses or without a top-level domain.
 */
export function canonicalEmail(typed: string): CanonicalEmail {
  const value = typed.replace(/^ +| +$/g, '');
  if (value === '') return refuse('missing');
  if (value.length > 1000) return refuse('too_long');
  if (CONTROL.test(value)) return refuse('control');
  if (INVISIBLE.test(value)) return refuse('invisible');
  if (ENCODED_WORD.test(value)) return refuse('encoded_word');
  const at = value.lastIndexOf('@');
  if (at < 0) return refuse('not_an_address');
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.includes('"') || local.includes('\\')) return refuse('quoted');
  if (domain.startsWith('[') || /^\d+(?:\.\d+){3}$/.test(domain)) return refuse('ip_literal');
  if (value.includes(' ')) return refuse('space');
  if (/[^\x21-\x7e]/.test(local)) return refuse('non_ascii_local');
  if (!DOT_ATOM.test(local)) return refuse('not_an_address');
  if (local.length > 64) return refuse('too_long');
  const ascii = domain === '' ? null : toASCII(domain, UTS46);
  if (ascii === null || ascii.endsWith('.')) return refuse('domain');
  const labels = ascii.split('.');
  if (labels.length < 2 || !TOP_LABEL.test(labels[labels.length - 1])) return refuse('domain');
  const email = `${local.toLowerCase()}@${ascii}`;
  if (email.length > 254) return refuse('too_long');
  return { ok: true, email };
}

/** The canonical form, or EmailRefusedError (the CLI and the seeds, which stop at a bad address). */
export function canonicalEmailOrThrow(typed: string): string {
  const result = canonicalEmail(typed);
  if (!result.ok) throw new EmailRefusedError(result.problem);
  return result.email;
}

/**
 * The key an address is counted under (sign-in throttle, mail budgets): its canonical form, so every
 * spelling of one mailbox shares one counter; a refused value (which never gets a mail or an account)
 * counts under itself, trimmed and lower-cased.
 */
export function emailKey(typed: string): string {
  const result = canonicalEmail(typed);
  return result.ok ? result.email : typed.trim().toLowerCase();
}

function refuse(problem: EmailProblem): CanonicalEmail {
  return { ok: false, problem };
}
