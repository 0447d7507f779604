import { Language } from '../../../common/i18n/language';
import type { PasswordProblem, SignUpProblem, Unavailable } from '../../outcomes';

export type { SignUpProblem, Unavailable };

interface SelfServiceCatalogue {
  name: string;
  email: string;
  password: string;
  passwordHint: string;
  signUpTitle: string;
  signUpIntro: string;
  signUpButton: string;
  haveAccount: string;
  signInLink: string;
  problemLead: string;
  nameProblem: Record<'missing' | 'too_long' | 'invalid', string>;
  emailInvalid: string;
  passwordProblem: Record<PasswordProblem, string>;
  checkEmailTitle: string;
  /** `{}` is the address typed. */
  checkEmailSent: string;
  checkEmailAdvice: string;
  confirmTitle: string;
  confirmIntro: string;
  confirmButton: string;
  linkInvalidTitle: string;
  linkInvalid: string;
  newMailLink: string;
  accountReadyTitle: string;
  accountReady: string;
  unavailableTitle: string;
  unavailable: Record<Unavailable, string>;
  throttledTitle: string;
  throttled: string;
  forgotTitle: string;
  forgotIntro: string;
  forgotButton: string;
  forgotProblem: string;
  resetTitle: string;
  resetIntro: string;
  newPassword: string;
  resetButton: string;
  resetProblemLead: string;
  securityTitle: string;
  changePasswordTitle: string;
  currentPassword: string;
  changePasswordButton: string;
  changeEmailTitle: string;
  currentEmail: string;
  newEmail: string;
  changeEmailButton: string;
  wrongPassword: string;
  sameEmail: string;
  passwordChanged: string;
  emailLinkSent: (address: string) => string;
  confirmNewEmailTitle: string;
  confirmNewEmailIntro: string;
  confirmNewEmailButton: string;
  emailChangedTitle: string;
  emailChanged: string;
  backToAccount: string;
  dataTitle: string;
  downloadTitle: string;
  downloadIntro: string;
  downloadButton: string;
  deleteTitle: string;
  deleteIntro: string;
  deleteConfirm: string;
  deleteButton: string;
  deleteUnconfirmed: string;
  deletedTitle: string;
  deleted: string;
}

/** The words of the pages a person uses without being signed in (README.md, Your account), in both languages. */
export const SELF_SERVICE_MESSAGES: Record<Language, SelfServiceCatalogue> = {
  tr: {
    name: 'Adınız',
    email: 'E-posta adresi',
    password: 'Parola',
    passwordHint: 'En az 8, en çok 128 karakter. Boşluk ve her karakter kullanılabilir; uzun bir cümle iyi bir paroladır.',
    signUpTitle: 'Hesap oluşturun',
    signUpIntro: 'Adresinize bir doğrulama bağlantısı göndereceğiz. Hesabınız, bağlantıyla adresinizi doğruladığınızda oluşur.',
    signUpButton: 'Hesap oluştur',
    haveAccount: 'Zaten hesabınız var mı?',
    signInLink: 'Oturum açın',
    problemLead: 'Hesap oluşturulmadı.',
    nameProblem: {
      missing: 'Adınızı yazın.',
      too_long: 'Adınız en çok 200 karakter olabilir.',
      invalid: 'Adınız denetim karakterleri içeremez.',
    },
    emailInvalid: 'Geçerli bir e-posta adresi yazın (ör. ad@ornek.com).',
    passwordProblem: {
      too_short: 'Parola en az 8 karakter olmalı.',
      too_long: 'Parola en çok 128 karakter olabilir.',
      common: 'Bu parola en sık kullanılan parolalardan biri; tahmin edilmesi kolay. Başka bir parola seçin.',
      same_as_email: 'Parola e-posta adresinizle aynı olamaz.',
      same_as_name: 'Parola adınızla aynı olamaz.',
    },
    checkEmailTitle: 'E-postanızı kontrol edin',
    checkEmailSent: '{} adresine bir e-posta gönderiyoruz. Devam etmek için içindeki bağlantıyı açın.',
    checkEmailAdvice: 'E-posta birkaç dakika içinde gelmezse istenmeyen e-posta klasörüne bakın ya da yeniden deneyin.',
    confirmTitle: 'Adresinizi doğrulayın',
    confirmIntro: 'Hesabınızı oluşturmak için aşağıdaki düğmeye basın.',
    confirmButton: 'Adresimi doğrula',
    linkInvalidTitle: 'Bağlantı geçersiz',
    linkInvalid: 'Bu bağlantı kullanılmış, süresi dolmuş ya da hiç geçerli değil. Hiçbir şey değişmedi.',
    newMailLink: 'Yeni bir e-posta isteyin',
    accountReadyTitle: 'Hesabınız hazır',
    accountReady: 'Adresiniz doğrulandı ve hesabınız oluşturuldu. Artık oturum açabilirsiniz.',
    unavailableTitle: 'Bu sayfa kapalı',
    unavailable: {
      sign_up_closed: 'Bu platformda kendiniz hesap oluşturamazsınız: hesapları yönetici açar.',
      mail_off: 'Yönetici e-posta gönderimini kapattığı için bu sayfa kullanılamıyor.',
    },
    throttledTitle: 'Çok fazla deneme',
    throttled: 'Bu adresten çok fazla deneme yapıldı. Biraz sonra yeniden deneyin.',
    forgotTitle: 'Parolanızı mı unuttunuz?',
    forgotIntro: 'Hesabınızın e-posta adresini yazın; yeni parola belirlemeniz için bir bağlantı göndereceğiz.',
    forgotButton: 'Bağlantı gönder',
    forgotProblem: 'Geçerli bir e-posta adresi yazın (ör. ad@ornek.com).',
    resetTitle: 'Yeni parola belirleyin',
    resetIntro: 'Yeni parolanızı yazın. Kaydettiğinizde hesabınızın tüm oturumları kapanır ve yeniden oturum açarsınız.',
    newPassword: 'Yeni parola',
    resetButton: 'Parolayı kaydet',
    resetProblemLead: 'Parola değişmedi.',
    securityTitle: 'Güvenlik',
    changePasswordTitle: 'Parolayı değiştir',
    currentPassword: 'Şu anki parola',
    changePasswordButton: 'Parolayı değiştir',
    changeEmailTitle: 'E-posta adresini değiştir',
    currentEmail: 'Şu anki adres',
    newEmail: 'Yeni e-posta adresi',
    changeEmailButton: 'Doğrulama bağlantısı gönder',
    wrongPassword: 'Şu anki parola doğru değil. Hiçbir şey değişmedi.',
    sameEmail: 'Yeni adres şu anki adresinizle aynı. Hiçbir şey değişmedi.',
    passwordChanged: 'Parolanız değiştirildi. Diğer cihazlardaki oturumlar kapatıldı.',
    emailLinkSent: (address) => `${address} adresine bir doğrulama bağlantısı gönderiyoruz. Adresiniz, bağlantıdaki düğmeye bastığınızda değişir.`,
    confirmNewEmailTitle: 'Yeni adresinizi doğrulayın',
    confirmNewEmailIntro: 'Hesabınızın e-posta adresini bu adresle değiştirmek için aşağıdaki düğmeye basın.',
    confirmNewEmailButton: 'Yeni adresimi doğrula',
    emailChangedTitle: 'E-posta adresiniz değişti',
    emailChanged: 'Hesabınızın e-posta adresi değiştirildi. Bundan sonra bu adresle oturum açarsınız.',
    backToAccount: 'Hesabınıza dönün',
    dataTitle: 'Verileriniz',
    downloadTitle: 'Verilerimi indir',
    downloadIntro: 'Platformun sizin hakkınızda tuttuğu her şey tek bir JSON dosyasında: profiliniz, bağlı uygulamalarınız, kaydettiğiniz uygulamalar ve API anahtarları (gizli değerleri olmadan), geçiş anahtarlarınız, doğrulama uygulamasının açık olup olmadığı, kalan kurtarma kodu sayısı ve güvenlik olaylarınız.',
    downloadButton: 'Verilerimi indir',
    deleteTitle: 'Hesabı sil',
    deleteIntro: 'Hesabınız, oturumlarınız, verdiğiniz izinler, tüm erişim anahtarları, kaydettiğiniz uygulamalar ve API anahtarlarınız hemen ve geri alınamaz biçimde silinir.',
    deleteConfirm: 'Hesabımın ve sahip olduğu her şeyin silineceğini anlıyorum',
    deleteButton: 'Hesabımı sil',
    deleteUnconfirmed: 'Silmek için kutuyu işaretleyin. Hiçbir şey silinmedi.',
    deletedTitle: 'Hesabınız silindi',
    deleted: 'Hesabınız ve sahip olduğu her şey silindi. Bu adresle istediğiniz zaman yeniden kaydolabilirsiniz.',
  },
  en: {
    name: 'Your name',
    email: 'Email address',
    password: 'Password',
    passwordHint: 'At least 8 and at most 128 characters. Spaces and any characters are welcome; a long sentence makes a good password.',
    signUpTitle: 'Create an account',
    signUpIntro: 'We will send a confirmation link to your address. Your account is created when you confirm your address with it.',
    signUpButton: 'Create account',
    haveAccount: 'Already have an account?',
    signInLink: 'Sign in',
    problemLead: 'No account was created.',
    nameProblem: {
      missing: 'Enter your name.',
      too_long: 'Your name can be at most 200 characters.',
      invalid: 'Your name cannot contain control characters.',
    },
    emailInvalid: 'Enter a valid email address (e.g. name@example.com).',
    passwordProblem: {
      too_short: 'The password must be at least 8 characters long.',
      too_long: 'The password can be at most 128 characters long.',
      common: 'This password is one of the most common ones and easy to guess. Choose another one.',
      same_as_email: 'The password cannot be your email address.',
      same_as_name: 'The password cannot be your name.',
    },
    checkEmailTitle: 'Check your email',
    checkEmailSent: 'We are sending an email to {}. Open the link in it to continue.',
    checkEmailAdvice: 'If it does not arrive within a few minutes, look in your spam folder or try again.',
    confirmTitle: 'Confirm your address',
    confirmIntro: 'Press the button below to create your account.',
    confirmButton: 'Confirm my address',
    linkInvalidTitle: 'This link does not work',
    linkInvalid: 'This link has been used, has expired, or was never valid. Nothing changed.',
    newMailLink: 'Ask for a new email',
    accountReadyTitle: 'Your account is ready',
    accountReady: 'Your address is confirmed and your account is created. You can sign in now.',
    unavailableTitle: 'This page is turned off',
    unavailable: {
      sign_up_closed: 'You cannot create an account yourself on this platform: the operator creates accounts.',
      mail_off: 'The operator has turned off sending email, so this page cannot be used.',
    },
    throttledTitle: 'Too many attempts',
    throttled: 'Too many attempts came from this address. Try again a little later.',
    forgotTitle: 'Forgot your password?',
    forgotIntro: 'Enter the email address of your account; we will send you a link to set a new password.',
    forgotButton: 'Send link',
    forgotProblem: 'Enter a valid email address (e.g. name@example.com).',
    resetTitle: 'Set a new password',
    resetIntro: 'Type your new password. When you save it, every session of your account ends and you sign in again.',
    newPassword: 'New password',
    resetButton: 'Save password',
    resetProblemLead: 'The password was not changed.',
    securityTitle: 'Security',
    changePasswordTitle: 'Change password',
    currentPassword: 'Current password',
    changePasswordButton: 'Change password',
    changeEmailTitle: 'Change email address',
    currentEmail: 'Current address',
    newEmail: 'New email address',
    changeEmailButton: 'Email a link to the new address',
    wrongPassword: 'The current password is not right. Nothing changed.',
    sameEmail: 'The new address is your current one. Nothing changed.',
    passwordChanged: 'Your password was changed. Your sessions on other devices were ended.',
    emailLinkSent: (address) => `We are sending a confirmation link to ${address}. Your address changes when you press the button behind it.`,
    confirmNewEmailTitle: 'Confirm your new address',
    confirmNewEmailIntro: 'Press the button below to make this the email address of your account.',
    confirmNewEmailButton: 'Confirm my new address',
    emailChangedTitle: 'Your email address changed',
    emailChanged: 'The email address of your account was changed. From now on you sign in with this address.',
    backToAccount: 'Back to your account',
    dataTitle: 'Your data',
    downloadTitle: 'Download my data',
    downloadIntro: 'Everything the platform holds about you in one JSON file: your profile, your connected apps, the applications and API keys you registered (without their secrets), your passkeys, whether the authenticator app is on, how many recovery codes are left, and your security events.',
    downloadButton: 'Download my data',
    deleteTitle: 'Delete account',
    deleteIntro: 'Your account, its sessions, the access you gave, every token, the applications and API keys you registered are deleted at once, for good.',
    deleteConfirm: 'I understand that my account and everything it owns will be deleted',
    deleteButton: 'Delete my account',
    deleteUnconfirmed: 'Tick the box to delete. Nothing was deleted.',
    deletedTitle: 'Your account was deleted',
    deleted: 'Your account and everything it owned were deleted. You can sign up again with this address whenever you like.',
  },
};
