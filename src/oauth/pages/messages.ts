import { Language } from '../../common/i18n/language';

/** Why an authorization request cannot be answered with a redirect (RFC 6749 §4.1.2.1). */
export type RequestProblem =
  | 'missing_client_id'
  | 'unknown_client'
  | 'repeated_client_id'
  | 'missing_redirect_uri'
  | 'unregistered_redirect_uri'
  | 'repeated_redirect_uri';

/** Why a form post of the sign-in or consent page was refused. */
export type FormProblem = 'csrf' | 'cross_site' | 'transaction';

interface Catalogue {
  signInTitle: string;
  signInIntro: (client: string) => string;
  signInToAccount: string;
  email: string;
  password: string;
  signIn: string;
  invalidCredentials: string;
  throttled: string;
  consentTitle: string;
  consentIntro: (client: string) => string;
  signedInAs: (who: string) => string;
  approve: string;
  deny: string;
  consentNote: string;
  errorTitle: string;
  requestProblem: Record<RequestProblem, string>;
  requestAdvice: string;
  formProblem: Record<FormProblem, string>;
  formAdvice: string;
  /** A failure that is not the request's fault, or a request the server cannot read at all. */
  failure: { unavailable: string; unexpected: string; invalid: string };
  failureAdvice: string;
}

/** Every word of the sign-in, consent and error pages, in both languages (CONTRACT §1, §3). */
export const PAGE_MESSAGES: Record<Language, Catalogue> = {
  tr: {
    signInTitle: 'Oturum açın',
    signInIntro: (client) => `${client} hesabınıza erişmek istiyor. Devam etmek için oturum açın.`,
    signInToAccount: 'Hesabınızı yönetmek için oturum açın.',
    email: 'E-posta adresi',
    password: 'Parola',
    signIn: 'Oturum aç',
    invalidCredentials: 'E-posta adresi ya da parola hatalı.',
    throttled: 'Çok fazla başarısız deneme yapıldı. Lütfen birkaç dakika sonra yeniden deneyin.',
    consentTitle: 'Erişim izni',
    consentIntro: (client) => `${client} hesabınızla şunları yapmak istiyor:`,
    signedInAs: (who) => `${who} olarak oturum açtınız.`,
    approve: 'İzin ver',
    deny: 'Reddet',
    consentNote: 'İzni reddederseniz uygulamaya hiçbir bilgi verilmez.',
    errorTitle: 'İstek işlenemedi',
    requestProblem: {
      missing_client_id: 'İstekte uygulama kimliği (client_id) yok.',
      unknown_client: 'Uygulama tanınmıyor.',
      repeated_client_id: 'Uygulama kimliği (client_id) birden fazla kez gönderilmiş.',
      missing_redirect_uri: 'İstekte dönüş adresi (redirect_uri) yok.',
      unregistered_redirect_uri: 'Dönüş adresi (redirect_uri) bu uygulama için kayıtlı değil.',
      repeated_redirect_uri: 'Dönüş adresi (redirect_uri) birden fazla kez gönderilmiş.',
    },
    requestAdvice: 'Güvenliğiniz için uygulamaya geri yönlendirilmediniz. Uygulamanın geliştiricisine başvurun.',
    formProblem: {
      csrf: 'Form doğrulanamadı; süresi dolmuş olabilir.',
      cross_site: 'Form başka bir siteden gönderildiği için kabul edilmedi.',
      transaction: 'Bu yetkilendirme isteğinin süresi dolmuş ya da isteği geçersiz.',
    },
    formAdvice: 'Uygulamaya dönüp yeniden başlayın.',
    failure: {
      unavailable: 'Hizmet şu anda kullanılamıyor.',
      unexpected: 'Beklenmeyen bir hata oluştu.',
      invalid: 'İstek okunamadı.',
    },
    failureAdvice: 'Birkaç dakika sonra uygulamaya dönüp yeniden deneyin.',
  },
  en: {
    signInTitle: 'Sign in',
    signInIntro: (client) => `${client} wants to access your account. Sign in to continue.`,
    signInToAccount: 'Sign in to manage your account.',
    email: 'Email address',
    password: 'Password',
    signIn: 'Sign in',
    invalidCredentials: 'The email address or password is incorrect.',
    throttled: 'Too many failed attempts. Please try again in a few minutes.',
    consentTitle: 'Allow access',
    consentIntro: (client) => `${client} would like to use your account to:`,
    signedInAs: (who) => `You are signed in as ${who}.`,
    approve: 'Allow',
    deny: 'Deny',
    consentNote: 'If you deny, the application receives nothing.',
    errorTitle: 'The request cannot be processed',
    requestProblem: {
      missing_client_id: 'The request names no application (client_id).',
      unknown_client: 'The application is not known.',
      repeated_client_id: 'The application (client_id) was sent more than once.',
      missing_redirect_uri: 'The request has no return address (redirect_uri).',
      unregistered_redirect_uri: 'The return address (redirect_uri) is not registered for this application.',
      repeated_redirect_uri: 'The return address (redirect_uri) was sent more than once.',
    },
    requestAdvice: 'For your safety you were not sent back to the application. Please contact its developer.',
    formProblem: {
      csrf: 'The form could not be verified; it may have expired.',
      cross_site: 'The form was sent from another site and was not accepted.',
      transaction: 'This authorization request has expired or is not valid.',
    },
    formAdvice: 'Go back to the application and start again.',
    failure: {
      unavailable: 'The service is temporarily unavailable.',
      unexpected: 'Something unexpected went wrong.',
      invalid: 'The request could not be read.',
    },
    failureAdvice: 'Go back to the application and try again in a few minutes.',
  },
};
