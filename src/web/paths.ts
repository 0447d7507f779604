/**
 * The developer portal's address (README.md, Register your application): its page links to it, its
 * controller redirects to it and the cookie of a credential shown once is limited to it.
 */
export const DEVELOPER_PATH = '/account/developer';
