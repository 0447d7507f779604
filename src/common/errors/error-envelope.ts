import { Language } from '../i18n/language';
import { validationMessage } from '../i18n/validation-messages';
import { ValidationIssue } from './app-error';
import { ERROR_CATALOGUE, ErrorCode } from './error-codes';

/** The body of every failed public-API response (docs/using-the-api.md, Envelopes). */
export function errorEnvelope(code: ErrorCode, language: Language, requestId: string, details?: ValidationIssue[]) {
  const error: { code: ErrorCode; message: string; requestId: string; details?: Array<{ field: string; message: string }> } = {
    code,
    message: ERROR_CATALOGUE[code][language],
    requestId,
  };
  if (details) {
    error.details = details.map((issue) => ({ field: issue.field, message: validationMessage(language, issue.constraint, issue.args) }));
  }
  return { error };
}

export const ERROR_RESPONSE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  vary: 'Accept-Language',
  'cache-control': 'no-store',
} as const;
