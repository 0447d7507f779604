import { Language } from '../common/i18n/language';

/** One mail's words before rendering: views/mail/text.eta and html.eta lay them out. */
export interface MailContent {
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** The mail's links, each shown as a button (HTML) and as its full address (both bodies). */
  links: Array<{ label: string; url: string }>;
  /** A closing remark in smaller print: what to do if this mail was not expected. */
  notice?: string;
}

/** What each kind of mail needs besides the language and the platform's name. */
export interface MailInputs {
  /**
   * Sign-up: the link that confirms the address and creates the account. No name: whoever typed the
   * address also typed the name, and a stranger's words (a link among them) must not reach an address
   * from the platform. The same holds for confirm_new_email and the name of a passkey.
   */
  confirm_sign_up: { confirmUrl: string; validFor: string };
  /** Sign-up with an address that already has an account: sign in, or reset the password. */
  account_exists: { signInUrl: string; resetUrl: string };
  /** Forgot password: the link to set a new one. */
  reset_password: { name: string; resetUrl: string; validFor: string };
  /** The notice after the password was reset or changed, with the way back if it was not the owner. */
  password_changed: { name: string; resetUrl: string };
  /** Change of address: the link, sent to the new address, that makes the change. */
  confirm_new_email: { confirmUrl: string; validFor: string };
  /**
   * Mailed to the current address as soon as a change of address is asked for (SECURITY.md, "Taking over
   * an account through a change of password or address"): the new address masked, and the single-use
   * link that cancels the pending change.
   */
  email_change_requested: { name: string; maskedEmail: string; cancelUrl: string; validFor: string };
  /**
   * The notice to the old address once the address changed, with the way back: a single-use link that
   * puts the old address back and ends every way in (a reset link would now reach the new mailbox).
   */
  email_changed: { name: string; newEmail: string; restoreUrl: string; validFor: string };
  /** After the way back: the address is back, the old password no longer works; the link sets a new one. */
  email_restored: { name: string; resetUrl: string; validFor: string };
  /** The notice of a change to how the account signs in: a passkey, the authenticator app, a recovery code. */
  sign_in_changed: { name: string; change: SignInChange; securityUrl: string; resetUrl: string };
}

/** The changes to how an account signs in that its owner is told of by mail (docs/second-factor.md). */
export type SignInChange = 'passkey_added' | 'passkey_removed' | 'totp_enabled' | 'totp_disabled' | 'recovery_code_used' | 'recovery_codes_renewed';

export type MailKind = keyof MailInputs;

interface Catalogue {
  hello: (name?: string) => string;
  signature: string;
  kinds: { [K in MailKind]: (input: MailInputs[K], platform: string) => MailContent };
}

/** Every mail's words in both languages (README.md, Your account), signed with the platform's name. */
export const MAIL_MESSAGES: Record<Language, Catalogue> = {
  tr: {
    hello: (name) => (name ? `Merhaba ${name},` : 'Merhaba,'),
    signature: 'Sevgiler,',
    kinds: {
      confirm_sign_up: (input, platform) => ({
        subject: `${platform}: e-posta adresinizi doğrulayın`,
        greeting: 'Merhaba,',
        paragraphs: [
          `${platform} hesabınızı oluşturmak için bu adresin size ait olduğunu doğrulayın.`,
          `Bağlantı ${input.validFor} boyunca ve bir kez geçerlidir. Açılan sayfada kayıt olurken seçtiğiniz parolayı yazıp düğmeye bastığınızda hesabınız oluşur.`,
        ],
        links: [{ label: 'Adresimi doğrula', url: input.confirmUrl }],
        notice: 'Kaydolmadıysanız bu e-postayı yok sayın: adresinizle hiçbir hesap oluşmaz.',
      }),
      account_exists: (input, platform) => ({
        subject: `${platform}: bu adresle bir hesabınız var`,
        greeting: 'Merhaba,',
        paragraphs: [
          `Bu adresle ${platform} üzerinde kaydolmak istendi, ancak bu adresin zaten bir hesabı var. Yeni bir hesap oluşturulmadı.`,
          'Oturum açabilir ya da parolanızı unuttuysanız yeni bir parola belirleyebilirsiniz.',
        ],
        links: [
          { label: 'Oturum aç', url: input.signInUrl },
          { label: 'Parolamı sıfırla', url: input.resetUrl },
        ],
        notice: 'Bunu siz istemediyseniz bu e-postayı yok sayın: hesabınızda hiçbir şey değişmedi.',
      }),
      reset_password: (input, platform) => ({
        subject: `${platform}: parolanızı sıfırlayın`,
        greeting: `Merhaba ${input.name},`,
        paragraphs: [`${platform} hesabınız için yeni bir parola belirlemek istendi.`, `Bağlantı ${input.validFor} boyunca ve bir kez geçerlidir.`],
        links: [{ label: 'Yeni parola belirle', url: input.resetUrl }],
        notice: 'Bunu siz istemediyseniz bu e-postayı yok sayın: parolanız değişmedi.',
      }),
      password_changed: (input, platform) => ({
        subject: `${platform}: parolanız değiştirildi`,
        greeting: `Merhaba ${input.name},`,
        paragraphs: [`${platform} hesabınızın parolası az önce değiştirildi ve açık oturumlar kapatıldı.`],
        links: [{ label: 'Parolamı sıfırla', url: input.resetUrl }],
        notice: 'Bunu siz yapmadıysanız hemen parolanızı sıfırlayın.',
      }),
      confirm_new_email: (input, platform) => ({
        subject: `${platform}: yeni e-posta adresinizi doğrulayın`,
        greeting: 'Merhaba,',
        paragraphs: [`${platform} hesabınızın e-posta adresini bu adresle değiştirmek istediniz.`, `Bağlantı ${input.validFor} boyunca ve bir kez geçerlidir. Açılan sayfadaki düğmeye bastığınızda adres değişir.`],
        links: [{ label: 'Yeni adresimi doğrula', url: input.confirmUrl }],
        notice: 'Bunu siz istemediyseniz bu e-postayı yok sayın: hiçbir şey değişmez.',
      }),
      email_change_requested: (input, platform) => ({
        subject: `${platform}: e-posta adresinizi değiştirmek istendi`,
        greeting: `Merhaba ${input.name},`,
        paragraphs: [
          `${platform} hesabınızın e-posta adresini ${input.maskedEmail} olarak değiştirmek istendi. Yeni adrese bir doğrulama bağlantısı gönderildi; o bağlantı kullanılınca adres değişir.`,
          `Bunu siz istemediyseniz aşağıdaki bağlantıyla değişikliği iptal edin (${input.validFor} boyunca, bir kez ve hesabın parolası ya da adresi yeniden değişene dek geçerlidir), sonra parolanızı sıfırlayın: isteyen kişi parolanızı biliyor.`,
        ],
        links: [{ label: 'Bu değişikliği iptal et', url: input.cancelUrl }],
        notice: 'Bunu siz istediyseniz bir şey yapmanız gerekmez.',
      }),
      email_changed: (input, platform) => ({
        subject: `${platform}: e-posta adresiniz değiştirildi`,
        greeting: `Merhaba ${input.name},`,
        paragraphs: [
          `${platform} hesabınızın e-posta adresi ${input.newEmail} olarak değiştirildi. Bundan sonraki e-postalar o adrese gidecek.`,
          `Bunu siz yapmadıysanız aşağıdaki bağlantıyla eski adresinizi geri alın (${input.validFor} boyunca, bir kez ve hesabın parolası ya da adresi yeniden değişene dek geçerlidir): bütün oturumlar ve bağlı uygulamalar kapatılır ve bu adrese yeni bir parola belirleme bağlantısı gönderilir.`,
        ],
        links: [{ label: 'Bunu ben yapmadım: adresimi geri al', url: input.restoreUrl }],
        notice: 'Bunu siz yaptıysanız bir şey yapmanız gerekmez.',
      }),
      email_restored: (input, platform) => ({
        subject: `${platform}: e-posta adresiniz geri alındı, yeni bir parola belirleyin`,
        greeting: `Merhaba ${input.name},`,
        paragraphs: [
          `${platform} hesabınızın e-posta adresi yeniden bu adres oldu. Bütün oturumlar kapatıldı, bağlı uygulamaların erişimi geri alındı ve eski parola artık çalışmıyor.`,
          `Yeni bir parola belirlemek için bağlantıyı kullanın; ${input.validFor} boyunca ve bir kez geçerlidir. Geçiş anahtarları ve doğrulama uygulaması da kaldırıldı (değiştiren kişi kendininkini eklemiş olabilir); oturum açtıktan sonra kendinizinkileri Güvenlik sayfasında yeniden ekleyin.`,
        ],
        links: [{ label: 'Yeni parola belirle', url: input.resetUrl }],
      }),
      sign_in_changed: (input, platform) => ({
        subject: `${platform}: ${TR_CHANGES[input.change].subject}`,
        greeting: `Merhaba ${input.name},`,
        paragraphs: [TR_CHANGES[input.change].what(platform), 'Hesabınızın geçiş anahtarlarını ve doğrulama uygulamasını Güvenlik sayfasında görebilirsiniz.'],
        links: [
          { label: 'Güvenlik sayfası', url: input.securityUrl },
          { label: 'Parolamı sıfırla', url: input.resetUrl },
        ],
        notice: 'Bunu siz yapmadıysanız hemen parolanızı sıfırlayın ve Güvenlik sayfasında tanımadığınız her şeyi kaldırın.',
      }),
    },
  },
  en: {
    hello: (name) => (name ? `Hello ${name},` : 'Hello,'),
    signature: 'Best regards,',
    kinds: {
      confirm_sign_up: (input, platform) => ({
        subject: `${platform}: confirm your email address`,
        greeting: 'Hello,',
        paragraphs: [
          `To create your ${platform} account, confirm that this address is yours.`,
          `The link works once, for ${input.validFor}. Your account is created when you type the password you chose at sign-up on the page it opens and press its button.`,
        ],
        links: [{ label: 'Confirm my address', url: input.confirmUrl }],
        notice: 'If you did not sign up, ignore this mail: no account is created with your address.',
      }),
      account_exists: (input, platform) => ({
        subject: `${platform}: you already have an account`,
        greeting: 'Hello,',
        paragraphs: [
          `Someone asked to sign up to ${platform} with this address, but it already has an account. No new account was created.`,
          'You can sign in, or set a new password if you have forgotten yours.',
        ],
        links: [
          { label: 'Sign in', url: input.signInUrl },
          { label: 'Reset my password', url: input.resetUrl },
        ],
        notice: 'If this was not you, ignore this mail: nothing changed in your account.',
      }),
      reset_password: (input, platform) => ({
        subject: `${platform}: reset your password`,
        greeting: `Hello ${input.name},`,
        paragraphs: [`Someone asked to set a new password for your ${platform} account.`, `The link works once, for ${input.validFor}.`],
        links: [{ label: 'Set a new password', url: input.resetUrl }],
        notice: 'If this was not you, ignore this mail: your password has not changed.',
      }),
      password_changed: (input, platform) => ({
        subject: `${platform}: your password was changed`,
        greeting: `Hello ${input.name},`,
        paragraphs: [`The password of your ${platform} account was just changed, and its open sessions were ended.`],
        links: [{ label: 'Reset my password', url: input.resetUrl }],
        notice: 'If this was not you, reset your password now.',
      }),
      confirm_new_email: (input, platform) => ({
        subject: `${platform}: confirm your new email address`,
        greeting: 'Hello,',
        paragraphs: [`You asked to change the email address of your ${platform} account to this one.`, `The link works once, for ${input.validFor}. The address changes when you press the button on the page it opens.`],
        links: [{ label: 'Confirm my new address', url: input.confirmUrl }],
        notice: 'If this was not you, ignore this mail: nothing changes.',
      }),
      email_change_requested: (input, platform) => ({
        subject: `${platform}: a change of your email address was asked for`,
        greeting: `Hello ${input.name},`,
        paragraphs: [
          `Someone asked to change the email address of your ${platform} account to ${input.maskedEmail}. A confirmation link was sent to that address; the address changes when it is used.`,
          `If this was not you, cancel the change with the link below (it works once, for ${input.validFor}, and not after the account's password or address changes again), then reset your password: whoever asked knows it.`,
        ],
        links: [{ label: 'Cancel this change', url: input.cancelUrl }],
        notice: 'If this was you, there is nothing to do.',
      }),
      email_changed: (input, platform) => ({
        subject: `${platform}: your email address was changed`,
        greeting: `Hello ${input.name},`,
        paragraphs: [
          `The email address of your ${platform} account was changed to ${input.newEmail}. Mail goes there from now on.`,
          `If this was not you, take your address back with the link below (it works once, for ${input.validFor}, and not after the account's password or address changes again): every session and connected app is signed out, and a link to set a new password is sent to this address.`,
        ],
        links: [{ label: 'This was not me: take my address back', url: input.restoreUrl }],
        notice: 'If this was you, there is nothing to do.',
      }),
      email_restored: (input, platform) => ({
        subject: `${platform}: your email address is back, set a new password`,
        greeting: `Hello ${input.name},`,
        paragraphs: [
          `This is again the email address of your ${platform} account. Every session was ended, connected apps were signed out and the old password no longer works.`,
          `Use the link to set a new password; it works once, for ${input.validFor}. Passkeys and the authenticator app were removed too (whoever made the change may have added their own); once signed in, add yours again on the Security page.`,
        ],
        links: [{ label: 'Set a new password', url: input.resetUrl }],
      }),
      sign_in_changed: (input, platform) => ({
        subject: `${platform}: ${EN_CHANGES[input.change].subject}`,
        greeting: `Hello ${input.name},`,
        paragraphs: [EN_CHANGES[input.change].what(platform), 'The Security page lists the passkeys and the authenticator app of your account.'],
        links: [
          { label: 'Security page', url: input.securityUrl },
          { label: 'Reset my password', url: input.resetUrl },
        ],
        notice: 'If this was not you, reset your password now and remove on the Security page whatever you do not recognise.',
      }),
    },
  },
};

/** Each change's subject and sentence. A passkey is not named: its name is whoever added it's words. */
type ChangeWords = Record<SignInChange, { subject: string; what: (platform: string) => string }>;

const TR_CHANGES: ChangeWords = {
  passkey_added: { subject: 'hesabınıza bir geçiş anahtarı eklendi', what: (platform) => `${platform} hesabınıza bir geçiş anahtarı eklendi. Bu anahtarla parola girmeden oturum açılabilir.` },
  passkey_removed: { subject: 'hesabınızdan bir geçiş anahtarı kaldırıldı', what: (platform) => `${platform} hesabınızdan bir geçiş anahtarı kaldırıldı.` },
  totp_enabled: { subject: 'doğrulama uygulaması açıldı', what: (platform) => `${platform} hesabınızda doğrulama uygulaması açıldı: bundan sonra her parolalı oturum açmada bir kod istenecek.` },
  totp_disabled: { subject: 'doğrulama uygulaması kapatıldı', what: (platform) => `${platform} hesabınızda doğrulama uygulaması kapatıldı: oturum açarken artık kod istenmiyor.` },
  recovery_codes_renewed: { subject: 'yeni kurtarma kodları oluşturuldu', what: (platform) => `${platform} hesabınız için on yeni kurtarma kodu oluşturuldu; öncekiler artık çalışmıyor.` },
  recovery_code_used: { subject: 'bir kurtarma kodu kullanıldı', what: (platform) => `${platform} hesabınızda oturum açmak için kurtarma kodlarınızdan biri kullanıldı. Her kod yalnızca bir kez çalışır.` },
};

const EN_CHANGES: ChangeWords = {
  passkey_added: { subject: 'a passkey was added to your account', what: (platform) => `A passkey was added to your ${platform} account. It can sign in without a password.` },
  passkey_removed: { subject: 'a passkey was removed from your account', what: (platform) => `A passkey was removed from your ${platform} account.` },
  totp_enabled: { subject: 'authenticator app turned on', what: (platform) => `An authenticator app was turned on for your ${platform} account: every sign-in with the password now asks for a code.` },
  totp_disabled: { subject: 'authenticator app turned off', what: (platform) => `The authenticator app of your ${platform} account was turned off: signing in no longer asks for a code.` },
  recovery_codes_renewed: { subject: 'new recovery codes were made', what: (platform) => `Ten new recovery codes were made for your ${platform} account; the earlier ones no longer work.` },
  recovery_code_used: { subject: 'a recovery code was used', what: (platform) => `One of your recovery codes was used to sign in to your ${platform} account. Each code works once.` },
};

/**
 * An address as the announcement of a change shows it (`a***@evil.example`): the first character of the
 * local part and the whole domain, enough for the owner to recognise or not, little for a reader of the
 * mail to learn.
 */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return at <= 0 ? '***' : `${address.slice(0, 1)}***${address.slice(at)}`;
}

/** A duration in whole hours or minutes, in words, for "the link works for …". */
export function durationWords(seconds: number, language: Language): string {
  const days = seconds / 86400;
  if (Number.isInteger(days) && days > 1) return language === 'tr' ? `${days} gün` : `${days} days`;
  const hours = seconds / 3600;
  if (Number.isInteger(hours)) return language === 'tr' ? `${hours} saat` : `${hours} hour${hours === 1 ? '' : 's'}`;
  const minutes = Math.max(1, Math.round(seconds / 60));
  return language === 'tr' ? `${minutes} dakika` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
