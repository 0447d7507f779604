import { ERROR_CATALOGUE } from '../common/errors/error-codes';
import { ErrorFormat } from '../common/errors/error-format';
import { sendPage } from './page';
import { failurePage } from './pages/pages';

/**
 * The failures of a page a person reads in a browser (the authorization flow's pages, docs/integrate-with-oauth.md): an
 * HTML page in their language, never the API's JSON. Declared with `@SkipEnvelope({ errors: PAGE_ERRORS })`.
 */
export const PAGE_ERRORS: ErrorFormat = {
  send(reply, failure, { language }) {
    sendPage(reply, failurePage(language, ERROR_CATALOGUE[failure.code].status, failure.headers));
  },
};

/** The same for the device flow's pages (RFC 8628 §3.3): with a link back to `/device`. */
export const DEVICE_PAGE_ERRORS: ErrorFormat = {
  send(reply, failure, { language }) {
    sendPage(reply, failurePage(language, ERROR_CATALOGUE[failure.code].status, failure.headers, 'device'));
  },
};
