// The words of views/account/confirm-access.eta, in tr and en: ConfirmAccessController
// (src/account/security/confirm-access.controller.ts) and RecentProofGuard's refusal (src/web/account-errors.ts).
import { Language } from '../../../common/i18n/language';
import type { ConfirmAccessProblem } from '../../../account/security/account-security.outcomes';

interface ConfirmAccessCatalogue {
  title: string;
  intro: string;
  /** Shown when an action was refused for want of a recent proof. */
  asked: string;
  password: string;
  confirm: string;
  orPasskey: string;
  withPasskey: string;
  codeTitle: string;
  code: string;
  confirmWithCode: string;
  problems: Record<ConfirmAccessProblem, string>;
  /** The security page, in place of a ceremony, until a recent proof is given. */
  confirmToAddPasskey: string;
  confirmToSetUp: string;
}

/** The confirm-access page (SECURITY.md, "A borrowed session adding a way in"), in both languages. */
export const CONFIRM_ACCESS_MESSAGES: Record<Language, ConfirmAccessCatalogue> = {
  tr: {
    title: 'Siz olduğunuzu doğrulayın',
    intro: 'Hesabınızın nasıl oturum açtığını değiştirmeden önce, son birkaç dakika içinde kimliğinizi yeniden kanıtlamanız gerekir. Ardından bulunduğunuz sayfaya dönersiniz.',
    asked: 'Bu işlem son zamanlarda yeniden doğrulama gerektirir. Hiçbir şey değişmedi.',
    password: 'Parolanız',
    confirm: 'Doğrula',
    orPasskey: 'Ya da geçiş anahtarınızla doğrulayın:',
    withPasskey: 'Geçiş anahtarıyla doğrula',
    codeTitle: 'Doğrulama uygulamasıyla',
    code: 'Doğrulama uygulamasındaki 6 haneli kod',
    confirmWithCode: 'Kodla doğrula',
    problems: {
      wrong_password: 'Parola doğru değil. Hiçbir şey değişmedi.',
      invalid_code: 'Kod doğru değil ya da daha önce kullanıldı. Hiçbir şey değişmedi.',
      passkey_refused: 'Geçiş anahtarı kabul edilmedi: bu hesaba ait olmalı ve sizi doğrulamalı (PIN ya da biyometri). Hiçbir şey değişmedi.',
      throttled: 'Çok fazla başarısız deneme yapıldı. Biraz sonra yeniden deneyin.',
    },
    confirmToAddPasskey: 'Geçiş anahtarı eklemek için önce siz olduğunuzu doğrulayın',
    confirmToSetUp: 'Kuruluma devam etmek için önce siz olduğunuzu doğrulayın',
  },
  en: {
    title: 'Confirm it is you',
    intro: 'Before you change how your account signs in, you need to have proved who you are in the last few minutes. Then you return to the page you were on.',
    asked: 'This action needs a recent confirmation. Nothing changed.',
    password: 'Your password',
    confirm: 'Confirm',
    orPasskey: 'Or confirm with your passkey:',
    withPasskey: 'Confirm with a passkey',
    codeTitle: 'With your authenticator app',
    code: 'The 6-digit code from your authenticator app',
    confirmWithCode: 'Confirm with the code',
    problems: {
      wrong_password: 'The password is not right. Nothing changed.',
      invalid_code: 'The code is not right or was used before. Nothing changed.',
      passkey_refused: 'The passkey was not accepted: it must be one of this account and verify you (a PIN or biometrics). Nothing changed.',
      throttled: 'Too many failed attempts. Try again a little later.',
    },
    confirmToAddPasskey: 'Confirm it is you first to add a passkey',
    confirmToSetUp: 'Confirm it is you first to continue the setup',
  },
};
