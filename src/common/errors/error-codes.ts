/**
 * The one catalogue of public API error codes (docs/using-the-api.md, Envelopes). The HTTP status, both message catalogues
 * and the OpenAPI error responses are all derived from this table.
 */
export const ERROR_CATALOGUE = {
  VALIDATION_ERROR: {
    status: 400,
    tr: 'İstek geçersiz; ayrıntılara bakın.',
    en: 'The request is invalid; see details.',
  },
  BAD_REQUEST: {
    status: 400,
    tr: 'İstek çözümlenemedi.',
    en: 'The request could not be parsed.',
  },
  UNAUTHORIZED: {
    status: 401,
    tr: 'Geçerli bir oturum gerekli.',
    en: 'A valid session is required.',
  },
  INVALID_API_KEY: {
    status: 401,
    tr: 'API anahtarı geçersiz ya da iptal edilmiş.',
    en: 'The API key is invalid or revoked.',
  },
  INSUFFICIENT_SCOPE: {
    status: 403,
    tr: 'Erişim belirtecinin bu işlem için yetkisi yok.',
    en: 'The access token lacks the scope this operation needs.',
  },
  NOT_FOUND: {
    status: 404,
    tr: 'İstenen kaynak bulunamadı.',
    en: 'The requested resource was not found.',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    tr: 'Bu yöntem bu adreste desteklenmiyor.',
    en: 'This method is not allowed on this path.',
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    tr: 'İstek gövdesi izin verilen boyutu aşıyor.',
    en: 'The request body is larger than allowed.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    tr: 'Bu içerik türü desteklenmiyor.',
    en: 'This content type is not supported.',
  },
  RATE_LIMITED: {
    status: 429,
    tr: 'Çok fazla istek gönderildi; biraz sonra yeniden deneyin.',
    en: 'Too many requests; try again later.',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    tr: 'İstek satırı ya da başlıkları çok büyük.',
    en: 'The request line or headers are too large.',
  },
  INTERNAL_ERROR: {
    status: 500,
    tr: 'Beklenmeyen bir hata oluştu.',
    en: 'An unexpected error occurred.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    tr: 'Hizmet şu anda kullanılamıyor; biraz sonra yeniden deneyin.',
    en: 'The service is unavailable right now; try again later.',
  },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export function statusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

/** The first code of the catalogue with this status, for errors that only carry a status. */
export function codeForStatus(status: number): ErrorCode {
  if (status >= 500) return status === 503 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_ERROR';
  if (status === 400) return 'BAD_REQUEST';
  const found = ERROR_CODES.find((code) => ERROR_CATALOGUE[code].status === status);
  return found ?? 'BAD_REQUEST';
}
