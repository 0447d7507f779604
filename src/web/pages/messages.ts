// The words of the authorization flow's pages (views/oauth/*.eta, views/error.eta), in tr and en: AuthorizeController
// (src/oauth/authorize/authorize.controller.ts) and the device flow's consent (src/oauth/device/device.controller.ts).
import { Language } from '../../common/i18n/language';
import type { AuthorizationErrorCode } from '../../common/errors/oauth-error';
import type { FormProblem, RequestProblem } from '../outcomes';

interface Catalogue {
  signInTitle: string;
  signInIntro: (client: string) => string;
  signInToAccount: string;
  /** Above the sign-in form the reset link sends to (README.md, Your account). */
  passwordResetSignIn: string;
  /** The sign-in on the way to the device flow's consent page (RFC 8628 §3.3). */
  signInForDevice: string;
  email: string;
  password: string;
  signIn: string;
  invalidCredentials: string;
  /** README.md, Your account: the links below the sign-in form to the pages a person uses alone. */
  noAccount: string;
  signUpLink: string;
  forgotPasswordLink: string;
  throttled: string;
  /** The second step of a password sign-in (docs/second-factor.md). */
  codeTitle: string;
  codeIntro: string;
  /** The code step asked for by an application (acr_values) of someone signed in already. */
  codeIntroStepUp: string;
  codeLabel: string;
  codeHint: string;
  codeContinue: string;
  invalidCode: string;
  signInExpired: string;
  signInWithPasskey: string;
  passkeyRefused: string;
  /** The application asked for a second factor (acr_values) and the account's only one is a passkey. */
  passkeyNeeded: string;
  passkeyUnverified: string;
  consentTitle: string;
  consentIntro: (client: string) => string;
  signedInAs: (who: string) => string;
  approve: string;
  deny: string;
  consentNote: string;
  /** An unverified application's consent page (docs/integrate-with-oauth.md): who vouches for it, and where the user goes next. */
  consentUnverified: string;
  /** `{}` is the host of the redirect URI. */
  consentSentTo: string;
  /** A client known by its metadata document (docs/integrate-with-oauth.md): the host of its client_id URL. */
  consentIdentifiedBy: string;
  errorTitle: string;
  /**
   * An authorization error of an unverified application, held on a page of this server (RFC 9700
   * §4.11.2): the error in plain words, why the user was not sent on, and the link they may follow.
   */
  held: {
    error: Record<AuthorizationErrorCode, string>;
    explanation: (client: string) => string;
    advice: string;
    /** `{}` is the host of the redirect URI. */
    link: string;
  };
  requestProblem: Record<RequestProblem, string>;
  requestAdvice: string;
  formProblem: Record<FormProblem, string>;
  formAdvice: string;
  /** A failure that is not the request's fault, or a request the server cannot read at all. */
  failure: { unavailable: string; unexpected: string; invalid: string };
  failureAdvice: string;
  /** The way out of an error page that cannot send the user back to the application: their account on this platform. */
  toAccount: string;
  /**
   * The page that posts the authorization response to the application (OAuth 2.0 Form Post Response
   * Mode): it submits itself, and offers the button when scripts are off. `{}` is the redirect URI's host.
   */
  formPost: { title: string; sending: string; advice: string; button: string };
}

/** Every word of the sign-in, consent and error pages, in both languages (docs/using-the-api.md, Envelopes; docs/integrate-with-oauth.md). */
export const PAGE_MESSAGES: Record<Language, Catalogue> = {
  tr: {
    signInTitle: 'Oturum açın',
    signInIntro: (client) => `${client} hesabınıza erişmek istiyor. Devam etmek için oturum açın.`,
    signInToAccount: 'Hesabınızı yönetmek için oturum açın.',
    passwordResetSignIn: 'Parolanız değiştirildi. Yeni parolanızla oturum açın.',
    signInForDevice: 'Cihazınızı bağlamak için oturum açın; ardından cihazın hesabınızla neler yapabileceğini onaylayacaksınız.',
    email: 'E-posta adresi',
    password: 'Parola',
    signIn: 'Oturum aç',
    noAccount: 'Hesabınız yok mu?',
    signUpLink: 'Hesap oluşturun',
    forgotPasswordLink: 'Parolanızı mı unuttunuz?',
    invalidCredentials: 'E-posta adresi ya da parola hatalı.',
    throttled: 'Çok fazla başarısız deneme yapıldı. Lütfen birkaç dakika sonra yeniden deneyin.',
    codeTitle: 'Doğrulama kodu',
    codeIntro: 'Parolanız doğru. Oturum açmayı tamamlamak için doğrulama uygulamanızdaki 6 haneli kodu girin.',
    codeIntroStepUp: 'Bu uygulama ikinci bir doğrulama istiyor. Devam etmek için doğrulama uygulamanızdaki 6 haneli kodu girin.',
    codeLabel: 'Kod',
    codeHint: 'Telefonunuz yanınızda değilse kurtarma kodlarınızdan birini girebilirsiniz.',
    codeContinue: 'Devam et',
    invalidCode: 'Bu kod doğru değil ya da daha önce kullanıldı.',
    signInExpired: 'Oturum açma işleminin süresi doldu. Lütfen yeniden oturum açın.',
    signInWithPasskey: 'Geçiş anahtarıyla oturum aç',
    passkeyRefused: 'Bu geçiş anahtarıyla oturum açılamadı. Yeniden deneyin ya da parolanızı kullanın.',
    passkeyNeeded: 'Bu uygulama ikinci bir doğrulama istiyor: geçiş anahtarınızla oturum açın.',
    passkeyUnverified: 'Geçiş anahtarı sizin olduğunuzu doğrulamadı (PIN, parmak izi ya da yüz), bu yüzden oturum açılmadı. Bunlardan birini soran bir cihaz kullanın ya da parolanızla oturum açın.',
    consentTitle: 'Erişim izni',
    consentIntro: (client) => `${client} hesabınızla şunları yapmak istiyor:`,
    signedInAs: (who) => `${who} olarak oturum açtınız.`,
    approve: 'İzin ver',
    deny: 'Reddet',
    consentNote: 'İzni reddederseniz uygulamaya hiçbir bilgi verilmez.',
    consentUnverified: 'Bu uygulama, bu hizmetin işletmecisi tarafından doğrulanmamış. Yalnızca güveniyorsanız izin verin.',
    consentSentTo: 'İzin verseniz de reddetseniz de ardından {} adresine gönderileceksiniz.',
    consentIdentifiedBy: 'Bu uygulamanın adı ve bilgileri {} sitesinden geliyor; yalnızca o sitenin sahibinin beyanıdır.',
    errorTitle: 'İstek işlenemedi',
    held: {
      error: {
        invalid_request: 'Uygulamanın isteği hatalı ya da eksik.',
        unsupported_response_type: 'Uygulama, bu hizmetin vermediği bir yanıt türü istedi.',
        invalid_scope: 'Uygulama bilinmeyen ya da kendisine tanınmamış izinler istedi.',
        access_denied: 'Erişim reddedildi.',
        login_required: 'Oturum açmadınız.',
        consent_required: 'Bu uygulamaya henüz izin vermediniz.',
        server_error: 'Sunucuda beklenmeyen bir hata oluştu.',
        invalid_target: 'Uygulama, bu hizmetin erişim vermediği bir kaynak için izin istedi.',
      },
      explanation: (client) => `${client}, bu hizmetin işletmecisi tarafından doğrulanmamış bir uygulama; bu yüzden ona kendiliğinden geri gönderilmediniz.`,
      advice: 'Bu uygulamaya güveniyor ve oraya dönmeyi bekliyorsanız aşağıdaki bağlantıyı izleyin; beklemiyorsanız bu sayfayı kapatın.',
      link: '{} adresine dön',
    },
    requestProblem: {
      missing_client_id: 'İstekte uygulama kimliği (client_id) yok.',
      unknown_client: 'Uygulama tanınmıyor.',
      repeated_client_id: 'Uygulama kimliği (client_id) birden fazla kez gönderilmiş.',
      missing_redirect_uri: 'İstekte dönüş adresi (redirect_uri) yok.',
      unregistered_redirect_uri: 'Dönüş adresi (redirect_uri) bu uygulama için kayıtlı değil.',
      repeated_redirect_uri: 'Dönüş adresi (redirect_uri) birden fazla kez gönderilmiş.',
      unknown_request_uri: 'Önceden gönderilen istek (request_uri) bulunamadı: süresi dolmuş, daha önce kullanılmış ya da başka bir uygulamaya ait.',
      repeated_request_uri: 'Önceden gönderilen istek (request_uri) birden fazla kez gönderilmiş.',
      client_metadata_invalid: 'Uygulamanın kimliği bir adres (client_id), ama o adresteki uygulama bilgileri alınamadı ya da geçersiz.',
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
    toAccount: 'Hesabınıza gidin',
    formPost: {
      title: 'Uygulamaya dönülüyor',
      sending: '{} adresine geri gönderiliyorsunuz.',
      advice: 'Kendiliğinden devam etmezse aşağıdaki düğmeye basın.',
      button: 'Devam et',
    },
  },
  en: {
    signInTitle: 'Sign in',
    signInIntro: (client) => `${client} wants to access your account. Sign in to continue.`,
    signInToAccount: 'Sign in to manage your account.',
    passwordResetSignIn: 'Your password was changed. Sign in with it.',
    signInForDevice: 'Sign in to connect your device; next you will confirm what it may do with your account.',
    email: 'Email address',
    password: 'Password',
    signIn: 'Sign in',
    noAccount: 'No account yet?',
    signUpLink: 'Create an account',
    forgotPasswordLink: 'Forgot your password?',
    invalidCredentials: 'The email address or password is incorrect.',
    throttled: 'Too many failed attempts. Please try again in a few minutes.',
    codeTitle: 'Verification code',
    codeIntro: 'Your password is correct. To finish signing in, enter the 6-digit code from your authenticator app.',
    codeIntroStepUp: 'This application asks for a second factor. To continue, enter the 6-digit code from your authenticator app.',
    codeLabel: 'Code',
    codeHint: 'If you do not have your phone with you, you can enter one of your recovery codes instead.',
    codeContinue: 'Continue',
    invalidCode: 'This code is not correct or has been used before.',
    signInExpired: 'Your sign-in took too long. Please sign in again.',
    signInWithPasskey: 'Sign in with a passkey',
    passkeyRefused: 'Signing in with this passkey did not work. Try again, or use your password.',
    passkeyNeeded: 'This application asks for a second factor: sign in with your passkey.',
    passkeyUnverified: 'The passkey did not check that it is you (a PIN, fingerprint or face), so you are not signed in. Use a device that asks for one, or sign in with your password.',
    consentTitle: 'Allow access',
    consentIntro: (client) => `${client} would like to use your account to:`,
    signedInAs: (who) => `You are signed in as ${who}.`,
    approve: 'Allow',
    deny: 'Deny',
    consentNote: 'If you deny, the application receives nothing.',
    consentUnverified: 'This application is not verified by the operator of this service. Allow it only if you trust it.',
    consentSentTo: 'Whether you allow or deny, you will then be sent to {}.',
    consentIdentifiedBy: "This application's name and details come from the site {}: they are only what that site's owner says.",
    errorTitle: 'The request cannot be processed',
    held: {
      error: {
        invalid_request: 'The application’s request is malformed or incomplete.',
        unsupported_response_type: 'The application asked for a kind of response this service does not give.',
        invalid_scope: 'The application asked for permissions that are unknown or not allowed for it.',
        access_denied: 'Access was denied.',
        login_required: 'You are not signed in.',
        consent_required: 'You have not yet allowed this application.',
        server_error: 'Something unexpected went wrong on the server.',
        invalid_target: 'The application asked for access to a resource this service does not grant.',
      },
      explanation: (client) => `${client} is an unverified application: the operator of this service has not verified it, so you were not sent back to it automatically.`,
      advice: 'Follow the link below only if you trust this application and expected to go back to it; otherwise close this page.',
      link: 'Go back to {}',
    },
    requestProblem: {
      missing_client_id: 'The request names no application (client_id).',
      unknown_client: 'The application is not known.',
      repeated_client_id: 'The application (client_id) was sent more than once.',
      missing_redirect_uri: 'The request has no return address (redirect_uri).',
      unregistered_redirect_uri: 'The return address (redirect_uri) is not registered for this application.',
      repeated_redirect_uri: 'The return address (redirect_uri) was sent more than once.',
      unknown_request_uri: 'The pushed request (request_uri) was not found: it has expired, was already used, or belongs to another application.',
      repeated_request_uri: 'The pushed request (request_uri) was sent more than once.',
      client_metadata_invalid: "The application identifies itself by an address (client_id), but the application's details at that address could not be fetched or are not valid.",
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
    toAccount: 'Go to your account',
    formPost: {
      title: 'Returning to the application',
      sending: 'You are being sent back to {}.',
      advice: 'If this does not continue by itself, press the button below.',
      button: 'Continue',
    },
  },
};
