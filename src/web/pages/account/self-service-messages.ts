// The words of views/account/{sign-up,confirm-sign-up,forgot-password,reset-password,mail-link,notice}.eta and the
// security page's password and email sections, in tr and en: SignUpController, PasswordResetController,
// ConfirmNewEmailController and SecurityController (src/account/**/*.controller.ts).
import { Language } from '../../../common/i18n/language';
import type { EmailProblem } from '../../../common/text/email-address';
import type { SignUpProblem, Unavailable } from '../../../account/sign-up/sign-up.outcomes';
import type { PasswordProblem } from '../../../users/password.outcomes';

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
  /** Why a typed address was refused (src/common/text/email-address.ts), each with what to type instead. */
  emailProblem: Record<EmailProblem, string>;
  passwordProblem: Record<PasswordProblem, string>;
  checkEmailTitle: string;
  /** The GET page after the post (Post/Redirect/Get): it names no address, so it is the same for every one. */
  checkEmailSent: string;
  checkEmailAdvice: string;
  /** The link back to the form, for an address typed wrong. */
  checkEmailTypo: string;
  confirmTitle: string;
  confirmIntro: string;
  confirmButton: string;
  confirmPassword: string;
  confirmPasswordHint: string;
  confirmWrongPassword: string;
  linkInvalidTitle: string;
  linkInvalid: string;
  newMailLink: string;
  accountReadyTitle: string;
  accountReady: string;
  unavailableTitle: string;
  unavailable: Record<Unavailable, string>;
  throttledTitle: string;
  throttled: string;
  /** A mail link's page refused for too many guesses from the network: `{}` is how long to wait. */
  throttledWait: string;
  throttledNewMail: string;
  forgotTitle: string;
  forgotIntro: string;
  forgotButton: string;
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
  confirmNewEmailTitle: string;
  confirmNewEmailIntro: string;
  confirmNewEmailButton: string;
  emailChangedTitle: string;
  emailChanged: string;
  backToAccount: string;
  cancelChangeTitle: string;
  cancelChangeIntro: string;
  cancelChangeButton: string;
  changeCancelledTitle: string;
  changeCancelled: string;
  resetNowLink: string;
  restoreTitle: string;
  restoreIntro: string;
  restoreButton: string;
  restoredTitle: string;
  /** `{}` is the address put back. */
  restored: string;
  restoredAdvice: string;
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
    emailProblem: {
      missing: 'E-posta adresinizi yazın (ör. ad@ornek.com).',
      too_long: 'Bu adres çok uzun: bir e-posta adresi en çok 254 karakter (@ işaretinden önce en çok 64) olabilir.',
      not_an_address: 'Bu bir e-posta adresi değil. ad@ornek.com biçiminde yazın: @ işaretinden önce harf, rakam ve . _ + - gibi işaretler, sonra bir alan adı.',
      control: 'Adreste bir denetim karakteri var. Adresi elle yeniden yazın.',
      invisible: 'Adreste görünmeyen ya da biçimlendirme amaçlı bir karakter var (yumuşak tire, sıfır genişlikte boşluk, yön işareti gibi). Adresi kopyalamak yerine elle yeniden yazın.',
      space: 'E-posta adresi boşluk içeremez.',
      encoded_word: 'Bu adres MIME ile kodlanmış (=?…?=). Adresin kendisini yazın.',
      quoted: 'Tırnak içindeki adresler ("…"@) kabul edilmiyor. Adresi tırnaksız yazın.',
      non_ascii_local: '@ işaretinden önceki kısımda yalnızca İngilizce harfler, rakamlar ve . _ + - gibi işaretler kullanılabilir (ç, ğ, ı, ö, ş, ü kullanılamaz).',
      ip_literal: 'Alan adı yerine IP adresi kabul edilmiyor. @ işaretinden sonra bir alan adı yazın (ör. ornek.com).',
      domain: '@ işaretinden sonraki kısım geçerli bir alan adı değil (ör. ornek.com).',
    },
    passwordProblem: {
      too_short: 'Parola en az 8 karakter olmalı.',
      too_long: 'Parola en çok 128 karakter olabilir.',
      common: 'Bu parola en sık kullanılan parolalardan biri; tahmin edilmesi kolay. Başka bir parola seçin.',
      same_as_email: 'Parola e-posta adresinizle aynı olamaz.',
      same_as_name: 'Parola adınızla aynı olamaz.',
    },
    checkEmailTitle: 'E-postanızı kontrol edin',
    checkEmailSent: 'Yazdığınız adrese bir e-posta gönderiyoruz. Devam etmek için içindeki bağlantıyı açın.',
    checkEmailAdvice: 'E-posta birkaç dakika içinde gelmezse istenmeyen e-posta klasörüne bakın ya da yeniden deneyin.',
    checkEmailTypo: 'Adresi yanlış mı yazdınız? Formu yeniden doldurun',
    confirmTitle: 'Adresinizi doğrulayın',
    confirmIntro: 'Hesabınızı oluşturmak için kayıt olurken seçtiğiniz parolayı yazın ve aşağıdaki düğmeye basın.',
    confirmButton: 'Adresimi doğrula',
    confirmPassword: 'Kayıt olurken seçtiğiniz parola',
    confirmPasswordHint: 'Bu kaydı siz yapmadıysanız hiçbir şey yapmanız gerekmez: parolayı bilmeyen kimse bu adresle hesap açamaz.',
    confirmWrongPassword: 'Bu parola, bu kayıtta seçilen parola değil. Hesap oluşturulmadı.',
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
    throttledWait: 'Bu ağdan çalışmayan çok fazla bağlantı denendi. {} sonra yeniden deneyin.',
    throttledNewMail: 'Beklemek istemiyorsanız yeni bir e-posta isteyin: geçerli bir bağlantı her zaman çalışır.',
    forgotTitle: 'Parolanızı mı unuttunuz?',
    forgotIntro: 'Hesabınızın e-posta adresini yazın; yeni parola belirlemeniz için bir bağlantı göndereceğiz.',
    forgotButton: 'Bağlantı gönder',
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
    confirmNewEmailTitle: 'Yeni adresinizi doğrulayın',
    confirmNewEmailIntro: 'Hesabınızın e-posta adresini bu adresle değiştirmek için aşağıdaki düğmeye basın.',
    confirmNewEmailButton: 'Yeni adresimi doğrula',
    emailChangedTitle: 'E-posta adresiniz değişti',
    emailChanged: 'Hesabınızın e-posta adresi değiştirildi. Bundan sonra bu adresle oturum açarsınız.',
    backToAccount: 'Hesabınıza dönün',
    cancelChangeTitle: 'Adres değişikliğini iptal edin',
    cancelChangeIntro: 'Hesabınızın e-posta adresini değiştirmek istendi. Bunu siz istemediyseniz aşağıdaki düğmeyle değişikliği iptal edin: yeni adrese gönderilen bağlantı artık çalışmaz.',
    cancelChangeButton: 'Değişikliği iptal et',
    changeCancelledTitle: 'Değişiklik iptal edildi',
    changeCancelled: 'E-posta adresiniz değişmeyecek: yeni adrese gönderilen bağlantı artık çalışmıyor. Değişikliği isteyen kişi parolanızı biliyor; hemen yeni bir parola belirleyin.',
    resetNowLink: 'Parolamı sıfırla',
    restoreTitle: 'Adresinizi geri alın',
    restoreIntro: 'Hesabınızın e-posta adresi değiştirildi. Bunu siz yapmadıysanız aşağıdaki düğmeye basın: bu adres geri gelir, bütün oturumlar ve bağlı uygulamalar kapatılır, eski parola çalışmaz olur ve bu adrese yeni bir parola belirleme bağlantısı gönderilir.',
    restoreButton: 'Bunu ben yapmadım: adresimi geri al',
    restoredTitle: 'Adresiniz geri alındı',
    restored: 'Hesabınızın e-posta adresi yeniden {} oldu. Yeni bir parola belirleme bağlantısını bu adrese gönderiyoruz.',
    restoredAdvice: 'Bütün oturumlar kapatıldı ve bağlı uygulamaların erişimi geri alındı. Geçiş anahtarları ve doğrulama uygulaması da kaldırıldı; yeni parolanızla oturum açtıktan sonra kendinizinkileri Güvenlik sayfasında yeniden ekleyin.',
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
    emailProblem: {
      missing: 'Enter your email address (e.g. name@example.com).',
      too_long: 'This address is too long: an email address has at most 254 characters (64 before the @).',
      not_an_address: 'This is not an email address. Write it as name@example.com: letters, digits and signs such as . _ + - before the @, then a domain.',
      control: 'The address contains a control character. Type it again by hand.',
      invisible: 'The address contains an invisible or formatting character (such as a soft hyphen, a zero-width space or a direction mark). Type it again by hand instead of pasting it.',
      space: 'An email address cannot contain spaces.',
      encoded_word: 'This address is MIME-encoded (=?…?=). Enter the address itself.',
      quoted: 'Quoted addresses ("…"@) are not accepted. Write the address without quotes.',
      non_ascii_local: 'The part before the @ may only use English letters, digits and signs such as . _ + - (no accented letters).',
      ip_literal: 'An IP address in place of a domain is not accepted. Write a domain after the @ (e.g. example.com).',
      domain: 'The part after the @ is not a valid domain name (e.g. example.com).',
    },
    passwordProblem: {
      too_short: 'The password must be at least 8 characters long.',
      too_long: 'The password can be at most 128 characters long.',
      common: 'This password is one of the most common ones and easy to guess. Choose another one.',
      same_as_email: 'The password cannot be your email address.',
      same_as_name: 'The password cannot be your name.',
    },
    checkEmailTitle: 'Check your email',
    checkEmailSent: 'We are sending an email to the address you typed. Open the link in it to continue.',
    checkEmailAdvice: 'If it does not arrive within a few minutes, look in your spam folder or try again.',
    checkEmailTypo: 'Mistyped the address? Fill in the form again',
    confirmTitle: 'Confirm your address',
    confirmIntro: 'To create your account, type the password you chose when you signed up and press the button below.',
    confirmButton: 'Confirm my address',
    confirmPassword: 'The password you chose when you signed up',
    confirmPasswordHint: 'If you did not sign up, you need to do nothing: nobody who does not know the password can open an account with this address.',
    confirmWrongPassword: 'This is not the password chosen in this sign-up. No account was created.',
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
    throttledWait: 'Too many links that do not work were tried from this network. Try again in {}.',
    throttledNewMail: 'If you would rather not wait, ask for a new email: a valid link always works.',
    forgotTitle: 'Forgot your password?',
    forgotIntro: 'Enter the email address of your account; we will send you a link to set a new password.',
    forgotButton: 'Send link',
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
    confirmNewEmailTitle: 'Confirm your new address',
    confirmNewEmailIntro: 'Press the button below to make this the email address of your account.',
    confirmNewEmailButton: 'Confirm my new address',
    emailChangedTitle: 'Your email address changed',
    emailChanged: 'The email address of your account was changed. From now on you sign in with this address.',
    backToAccount: 'Back to your account',
    cancelChangeTitle: 'Cancel the change of address',
    cancelChangeIntro: 'Someone asked to change the email address of your account. If this was not you, cancel the change with the button below: the link sent to the new address stops working.',
    cancelChangeButton: 'Cancel the change',
    changeCancelledTitle: 'The change was cancelled',
    changeCancelled: 'Your email address stays as it is: the link sent to the new address no longer works. Whoever asked for the change knows your password; set a new one now.',
    resetNowLink: 'Reset my password',
    restoreTitle: 'Take your address back',
    restoreIntro: 'The email address of your account was changed. If this was not you, press the button below: this address comes back, every session and connected app is signed out, the old password stops working and a link to set a new password is sent to this address.',
    restoreButton: 'This was not me: take my address back',
    restoredTitle: 'Your address is back',
    restored: 'The email address of your account is {} again. We are sending a link to set a new password to that address.',
    restoredAdvice: 'Every session was ended and connected apps were signed out. Passkeys and the authenticator app were removed too; once signed in with your new password, add yours again on the Security page.',
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
