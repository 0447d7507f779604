// The words of the account pages' layout and of views/account/{overview,apps,data}.eta, in tr and en: AccountController,
// ConnectedAppsController, AccountDataController (src/account/**/*.controller.ts).
import { Language } from '../../../common/i18n/language';
import { SecurityEventType } from '../../../common/security-event-types';

/** Why a form post of an account page changed nothing (README.md, Your account: a 403 page). */
export type ForbiddenProblem = 'csrf' | 'cross_site' | 'signed_out' | 'not_owned';

/** The sections of the account pages, in the order of their navigation. */
export type AccountSection = 'account' | 'security' | 'data' | 'apps' | 'developer';

interface AccountCatalogue {
  navigation: string;
  sections: Record<AccountSection, string>;
  signOut: string;
  /** The account page. */
  accountTitle: string;
  name: string;
  email: string;
  eventsTitle: string;
  eventsIntro: string;
  noEvents: string;
  when: string;
  what: string;
  ip: string;
  unknownIp: string;
  events: Record<SecurityEventType, string>;
  /** Connected apps. */
  appsTitle: string;
  appsIntro: string;
  noApps: string;
  allowedTo: string;
  firstGranted: string;
  lastUsed: string;
  neverUsed: string;
  revokeAccess: string;
  revokeAccessOf: (app: string) => string;
  revoked: (app: string) => string;
  /** The 403 page. */
  forbiddenTitle: string;
  forbidden: Record<ForbiddenProblem, string>;
  nothingChanged: string;
  backToAccount: string;
  signInAgain: string;
}

/** Every word of the account pages' shell and of the account page, in both languages. */
export const ACCOUNT_MESSAGES: Record<Language, AccountCatalogue> = {
  tr: {
    navigation: 'Hesap',
    sections: { account: 'Hesabınız', security: 'Güvenlik', data: 'Verileriniz', apps: 'Bağlı uygulamalar', developer: 'Geliştirici portalı' },
    signOut: 'Oturumu kapat',
    accountTitle: 'Hesabınız',
    name: 'Ad',
    email: 'E-posta adresi',
    eventsTitle: 'Güvenlik olayları',
    eventsIntro: 'Hesabınızdaki son 20 olay, en yenisi önce. Tanımadığınız bir olay görürseniz parolanızı değiştirin ve bağlı uygulamaları gözden geçirin.',
    noEvents: 'Henüz kayıtlı bir olay yok.',
    when: 'Zaman',
    what: 'Olay',
    ip: 'IP adresi',
    unknownIp: 'bilinmiyor',
    events: {
      sign_in: 'Oturum açıldı',
      sign_in_failed: 'Başarısız oturum açma denemesi',
      sign_out: 'Oturum kapatıldı',
      consent_given: 'Bir uygulamaya erişim izni verildi',
      access_revoked: 'Bir uygulamanın erişimi kaldırıldı',
      refresh_token_reuse: 'Yeniden kullanılan bir yenileme belirteci nedeniyle bir uygulamanın oturumu kapatıldı',
      client_registered: 'Bir uygulama kaydedildi',
      client_updated: 'Bir uygulama düzenlendi',
      client_secret_rotated: 'Bir uygulamanın gizli anahtarı yenilendi',
      client_deleted: 'Bir uygulama silindi',
      api_key_created: 'Bir API anahtarı oluşturuldu',
      api_key_revoked: 'Bir API anahtarı iptal edildi',
      totp_enabled: 'Doğrulama uygulaması açıldı',
      totp_disabled: 'Doğrulama uygulaması kapatıldı',
      recovery_code_used: 'Oturum açmak için bir kurtarma kodu kullanıldı',
      recovery_codes_renewed: 'Yeni kurtarma kodları oluşturuldu',
      passkey_added: 'Bir geçiş anahtarı eklendi',
      passkey_removed: 'Bir geçiş anahtarı kaldırıldı',
      account_created: 'Hesap oluşturuldu (adres doğrulandı)',
      password_reset: 'Parola e-postadaki bağlantıyla sıfırlandı',
      password_changed: 'Parola değiştirildi',
      email_changed: 'E-posta adresi değiştirildi',
      email_change_cancelled: 'E-posta adresi değişikliği eski adresteki bağlantıyla iptal edildi',
      email_restored: 'Eski e-posta adresi geri alındı; oturumlar ve uygulamalar kapatıldı',
    },
    appsTitle: 'Bağlı uygulamalar',
    appsIntro:
      'Hesabınıza erişim izni verdiğiniz uygulamalar. Erişimi kaldırdığınızda uygulamanın belirteçleri hemen geçersiz olur; uygulama yeniden erişmek isterse izninizi yeniden ister.',
    noApps: 'Hesabınıza erişimi olan bir uygulama yok.',
    allowedTo: 'İzin verilenler:',
    firstGranted: 'İlk izin',
    lastUsed: 'Son kullanım',
    neverUsed: 'henüz kullanılmadı',
    revokeAccess: 'Erişimi kaldır',
    revokeAccessOf: (app) => `Erişimi kaldır: ${app}`,
    revoked: (app) => `${app} artık hesabınıza erişemiyor.`,
    forbiddenTitle: 'İşlem reddedildi',
    forbidden: {
      csrf: 'Form doğrulanamadı; süresi dolmuş olabilir.',
      cross_site: 'Form başka bir siteden gönderildiği için kabul edilmedi.',
      signed_out: 'Oturumunuz kapanmış.',
      not_owned: 'Bu öğe size ait değil ya da artık yok.',
    },
    nothingChanged: 'Hiçbir şey değiştirilmedi.',
    backToAccount: 'Hesabınıza dönün',
    signInAgain: 'Yeniden oturum açın',
  },
  en: {
    navigation: 'Account',
    sections: { account: 'Your account', security: 'Security', data: 'Your data', apps: 'Connected apps', developer: 'Developer portal' },
    signOut: 'Sign out',
    accountTitle: 'Your account',
    name: 'Name',
    email: 'Email address',
    eventsTitle: 'Security events',
    eventsIntro: 'The last 20 events of your account, newest first. If you see one you do not recognise, change your password and review your connected apps.',
    noEvents: 'No events yet.',
    when: 'Time',
    what: 'Event',
    ip: 'IP address',
    unknownIp: 'unknown',
    events: {
      sign_in: 'Signed in',
      sign_in_failed: 'Failed sign-in attempt',
      sign_out: 'Signed out',
      consent_given: 'Access given to an application',
      access_revoked: "An application's access revoked",
      refresh_token_reuse: "An application's session ended because a refresh token was used twice",
      client_registered: 'Application registered',
      client_updated: 'Application edited',
      client_secret_rotated: "An application's secret rotated",
      client_deleted: 'Application deleted',
      api_key_created: 'API key created',
      api_key_revoked: 'API key revoked',
      totp_enabled: 'Authenticator app turned on',
      totp_disabled: 'Authenticator app turned off',
      recovery_code_used: 'A recovery code was used to sign in',
      recovery_codes_renewed: 'New recovery codes made',
      passkey_added: 'Passkey added',
      passkey_removed: 'Passkey removed',
      account_created: 'Account created (address confirmed)',
      password_reset: 'Password reset through the mailed link',
      password_changed: 'Password changed',
      email_changed: 'Email address changed',
      email_change_cancelled: 'Change of email address cancelled from the current address',
      email_restored: 'Old email address taken back; sessions and apps signed out',
    },
    appsTitle: 'Connected apps',
    appsIntro:
      'Applications you have allowed to access your account. When you revoke access, the application’s tokens stop working at once; to access your account again it has to ask for your consent again.',
    noApps: 'No application has access to your account.',
    allowedTo: 'Allowed to:',
    firstGranted: 'Access given',
    lastUsed: 'Last used',
    neverUsed: 'not used yet',
    revokeAccess: 'Revoke access',
    revokeAccessOf: (app) => `Revoke access: ${app}`,
    revoked: (app) => `${app} no longer has access to your account.`,
    forbiddenTitle: 'Request refused',
    forbidden: {
      csrf: 'The form could not be verified; it may have expired.',
      cross_site: 'The form was sent from another site and was not accepted.',
      signed_out: 'You are no longer signed in.',
      not_owned: 'This is not yours, or it no longer exists.',
    },
    nothingChanged: 'Nothing was changed.',
    backToAccount: 'Back to your account',
    signInAgain: 'Sign in again',
  },
};
