import { Language } from '../common/i18n/language';
import { escapeHtml, Page } from '../oauth/pages/html';

/** Why a logout request is refused without a redirect (RP-Initiated Logout 1.0 §3). */
export type LogoutProblem = 'invalid_id_token_hint' | 'unregistered_post_logout_redirect_uri' | 'unknown_client' | 'repeated_parameter';

const MESSAGES = {
  tr: {
    signedOutTitle: 'Oturumunuz kapatıldı',
    signedOut: 'Startup Platform oturumunuz kapatıldı. Bu pencereyi kapatabilir ya da uygulamaya dönebilirsiniz.',
    errorTitle: 'Oturum kapatma isteği işlenemedi',
    problem: {
      invalid_id_token_hint: 'İstekteki kimlik belirteci (id_token_hint) bu sunucunun verdiği geçerli bir belirteç değil.',
      unregistered_post_logout_redirect_uri: 'Dönüş adresi (post_logout_redirect_uri) bu uygulama için kayıtlı değil.',
      unknown_client: 'Dönüş adresinin hangi uygulamaya ait olduğu belirlenemedi; id_token_hint ya da client_id gönderilmeli.',
      repeated_parameter: 'Bir parametre birden fazla kez gönderilmiş.',
    },
    advice: 'Güvenliğiniz için uygulamaya geri yönlendirilmediniz ve oturumunuz açık kaldı. Uygulamanın geliştiricisine başvurun.',
  },
  en: {
    signedOutTitle: 'You are signed out',
    signedOut: 'You are signed out of Startup Platform. You may close this window or go back to the application.',
    errorTitle: 'The sign-out request cannot be processed',
    problem: {
      invalid_id_token_hint: 'The identity token in the request (id_token_hint) is not a valid token of this server.',
      unregistered_post_logout_redirect_uri: 'The return address (post_logout_redirect_uri) is not registered for this application.',
      unknown_client: 'The application the return address belongs to cannot be told: send id_token_hint or client_id.',
      repeated_parameter: 'A parameter was sent more than once.',
    },
    advice: 'For your safety you were not sent back to the application, and you are still signed in. Please contact its developer.',
  },
} satisfies Record<Language, unknown>;

/** RP-Initiated Logout 1.0 §2 without a return address: the session has ended; say so. */
export function signedOutPage(language: Language): Page {
  const t = MESSAGES[language];
  return {
    status: 200,
    language,
    title: t.signedOutTitle,
    body: `<h1>${escapeHtml(t.signedOutTitle)}</h1>
<p role="status">${escapeHtml(t.signedOut)}</p>`,
  };
}

/** A refused logout request: 400, no redirect, the session untouched. */
export function logoutErrorPage(language: Language, problem: LogoutProblem): Page {
  const t = MESSAGES[language];
  return {
    status: 400,
    language,
    title: t.errorTitle,
    body: `<h1>${escapeHtml(t.errorTitle)}</h1>
<p class="alert" role="alert">${escapeHtml(t.problem[problem])}</p>
<p>${escapeHtml(t.advice)}</p>`,
  };
}
