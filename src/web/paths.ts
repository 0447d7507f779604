/**
 * The developer portal's address (README.md, Register your application): its page links to it, its
 * controller redirects to it and the cookie of a credential shown once is limited to it.
 */
export const DEVELOPER_PATH = '/account/developer';

/**
 * The account's security page (docs/second-factor.md): its forms post under it, and the cookie of the
 * recovery codes shown once is limited to it.
 */
export const SECURITY_PATH = '/account/security';
