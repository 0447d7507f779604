// The words of views/account/security.eta and views/account/security/*.eta, in tr and en: SecurityController
// (src/account/security/security.controller.ts).
import { Language } from '../../../common/i18n/language';

/** What `/account/security?done=` may announce after a change (Post/Redirect/Get). */
export const SECURITY_NOTICES = ['authenticator_off', 'passkey_added', 'passkey_renamed', 'passkey_removed', 'email_link_sent'] as const;
export type SecurityNotice = (typeof SECURITY_NOTICES)[number];

interface SecurityCatalogue {
  title: string;
  intro: string;
  authenticatorTitle: string;
  authenticatorOffText: string;
  setUp: string;
  setUpTitle: string;
  setUpSteps: string;
  qrLabel: string;
  secretLabel: string;
  codeLabel: string;
  /** Under the turn-off form's code field: a recovery code works too. */
  offCodeHint: string;
  confirm: string;
  cancelSetUp: string;
  authenticatorOnText: string;
  recoveryLeft: (n: number) => string;
  newCodesTitle: string;
  newCodesText: string;
  newCodes: string;
  notOn: string;
  turnOffTitle: string;
  turnOffText: string;
  passwordLabel: string;
  turnOff: string;
  recoveryTitle: string;
  recoveryText: string;
  invalidCode: string;
  invalidProof: string;
  throttled: string;
  notPending: string;
  notices: Record<SecurityNotice, string>;
  passkeysTitle: string;
  passkeysText: string;
  noPasskeys: string;
  passkeyName: string;
  created: string;
  lastUsed: string;
  neverUsed: string;
  addPasskey: string;
  newPasskeyName: string;
  defaultPasskeyName: string;
  rename: string;
  renameLabel: (name: string) => string;
  remove: string;
  removeLast: string;
  yourPassword: string;
  orCode: string;
  passkeyNameRule: string;
  passkeyRefused: string;
  passkeyUnverified: string;
  passkeyProofNeeded: string;
  passkeysNeedScript: string;
}

/** Every word of the sections of `/account/security` that this feature adds (docs/second-factor.md). */
export const SECURITY_MESSAGES: Record<Language, SecurityCatalogue> = {
  tr: {
    title: 'Güvenlik',
    intro: 'Hesabınıza nasıl oturum açıldığını buradan yönetin.',
    authenticatorTitle: 'Doğrulama uygulaması',
    authenticatorOffText:
      'Bir doğrulama uygulaması (ör. Google Authenticator, Microsoft Authenticator, 1Password) açıldığında, parolanızdan sonra uygulamanın gösterdiği 6 haneli kod da sorulur.',
    setUp: 'Doğrulama uygulaması kur',
    setUpTitle: 'Doğrulama uygulamasını kurun',
    setUpSteps: 'Doğrulama uygulamanızla QR kodunu tarayın ya da gizli anahtarı elle girin; ardından uygulamanın gösterdiği kodu girerek kurulumu onaylayın.',
    qrLabel: 'Doğrulama uygulaması için QR kodu',
    secretLabel: 'Gizli anahtar',
    codeLabel: 'Uygulamadaki kod',
    offCodeHint: 'Telefonunuz yanınızda değilse kurtarma kodlarınızdan birini de girebilirsiniz.',
    confirm: 'Onayla',
    cancelSetUp: 'Kurulumu iptal et',
    authenticatorOnText: 'Doğrulama uygulaması açık: parolayla her oturum açmada kod sorulur.',
    recoveryLeft: (n) => `Kullanılmamış kurtarma kodu: ${n}.`,
    newCodesTitle: 'Yeni kurtarma kodları',
    newCodesText: 'Kodlarınızı kaybettiyseniz ya da biri gördüyse on yeni kod oluşturun: öncekilerin hepsi o anda çalışmaz olur.',
    newCodes: 'Yeni kodlar oluştur',
    notOn: 'Doğrulama uygulaması açık değil, bu yüzden kurtarma kodu yok. Hiçbir şey değişmedi.',
    turnOffTitle: 'Doğrulama uygulamasını kapat',
    turnOffText: 'Kapatmak için uygulamadaki güncel kodu ya da parolanızı girin.',
    passwordLabel: 'ya da parolanız',
    turnOff: 'Kapat',
    recoveryTitle: 'Kurtarma kodlarınız',
    recoveryText:
      'Telefonunuzu kaybederseniz bu kodlarla oturum açabilirsiniz; her biri yalnızca bir kez çalışır. Bunları şimdi güvenli bir yere kaydedin: bu sayfa onları bir daha göstermez.',
    invalidCode: 'Bu kod doğru değil ya da daha önce kullanıldı. Hiçbir şey değişmedi.',
    invalidProof: 'Kod ya da parola doğru değil. Hiçbir şey değişmedi.',
    throttled: 'Çok fazla başarısız deneme yapıldı. Lütfen birkaç dakika sonra yeniden deneyin.',
    notPending: 'Kurulacak bir doğrulama uygulaması yok. Hiçbir şey değişmedi.',
    notices: {
      authenticator_off: 'Doğrulama uygulaması kapatıldı.',
      passkey_added: 'Geçiş anahtarı eklendi.',
      passkey_renamed: 'Geçiş anahtarının adı değiştirildi.',
      passkey_removed: 'Geçiş anahtarı kaldırıldı.',
      email_link_sent: 'Yeni adresinize bir doğrulama bağlantısı gönderiyoruz. Adresiniz, bağlantıdaki düğmeye bastığınızda değişir; adresi yanlış yazdıysanız aşağıda yeniden değiştirin.',
    },
    passkeysTitle: 'Geçiş anahtarları',
    passkeysText: 'Geçiş anahtarıyla parola ve e-posta yazmadan, telefonunuzun ya da bilgisayarınızın kilidini açarak oturum açarsınız. Geçiş anahtarı yalnızca bu sitede çalışır.',
    noPasskeys: 'Henüz bir geçiş anahtarınız yok.',
    passkeyName: 'Ad',
    created: 'Eklendiği zaman',
    lastUsed: 'Son kullanım',
    neverUsed: 'hiç kullanılmadı',
    addPasskey: 'Geçiş anahtarı ekle',
    newPasskeyName: 'Yeni geçiş anahtarının adı',
    defaultPasskeyName: 'Geçiş anahtarım',
    rename: 'Yeniden adlandır',
    renameLabel: (name) => `${name} için yeni ad`,
    remove: 'Kaldır',
    yourPassword: 'Parolanız',
    orCode: 'ya da doğrulama uygulamasındaki kod',
    removeLast: 'Son geçiş anahtarınızı kaldırmak için parolanızı ya da doğrulama uygulamasındaki kodu girin.',
    passkeyNameRule: 'Ad 1 ile 100 karakter arasında olmalı ve görünmez karakter içermemeli. Hiçbir şey değişmedi.',
    passkeyRefused: 'Geçiş anahtarı eklenemedi. Yeniden deneyin. Hiçbir şey değişmedi.',
    passkeyUnverified: 'Geçiş anahtarı sizin olduğunuzu doğrulamadı (PIN, parmak izi ya da yüz), bu yüzden eklenmedi. Bunlardan birini soran bir cihaz ya da güvenlik anahtarı kullanın. Hiçbir şey değişmedi.',
    passkeyProofNeeded: 'Son geçiş anahtarını kaldırmak için parolanız ya da güncel bir kod gerekir. Hiçbir şey değişmedi.',
    passkeysNeedScript: 'Geçiş anahtarı eklemek için bu sayfada JavaScript açık olmalı ve tarayıcınız geçiş anahtarlarını desteklemeli.',
  },
  en: {
    title: 'Security',
    intro: 'Manage how your account is signed in to.',
    authenticatorTitle: 'Authenticator app',
    authenticatorOffText:
      'With an authenticator app (e.g. Google Authenticator, Microsoft Authenticator, 1Password) turned on, every sign-in asks for the 6-digit code it shows after your password.',
    setUp: 'Set up an authenticator app',
    setUpTitle: 'Set up your authenticator app',
    setUpSteps: 'Scan the QR code with your authenticator app, or type the secret key into it; then confirm with the code the app shows.',
    qrLabel: 'QR code for your authenticator app',
    secretLabel: 'Secret key',
    codeLabel: 'Code from the app',
    offCodeHint: 'If you do not have your phone with you, you can enter one of your recovery codes instead.',
    confirm: 'Confirm',
    cancelSetUp: 'Cancel setup',
    authenticatorOnText: 'The authenticator app is on: every sign-in with your password asks for a code.',
    recoveryLeft: (n) => `Unused recovery codes: ${n}.`,
    newCodesTitle: 'New recovery codes',
    newCodesText: 'If you lost your codes or someone saw them, make ten new ones: every earlier code stops working at once.',
    newCodes: 'Make new codes',
    notOn: 'The authenticator app is not on, so there are no recovery codes. Nothing was changed.',
    turnOffTitle: 'Turn off the authenticator app',
    turnOffText: 'To turn it off, enter a current code from the app, or your password.',
    passwordLabel: 'or your password',
    turnOff: 'Turn off',
    recoveryTitle: 'Your recovery codes',
    recoveryText:
      'If you lose your phone, you can sign in with these codes; each works once. Save them somewhere safe now: this page will not show them again.',
    invalidCode: 'This code is not correct or has been used before. Nothing was changed.',
    invalidProof: 'The code or password is not correct. Nothing was changed.',
    throttled: 'Too many failed attempts. Please try again in a few minutes.',
    notPending: 'There is no authenticator app being set up. Nothing was changed.',
    notices: {
      authenticator_off: 'The authenticator app was turned off.',
      passkey_added: 'The passkey was added.',
      passkey_renamed: 'The passkey was renamed.',
      passkey_removed: 'The passkey was removed.',
      email_link_sent: 'We are sending a confirmation link to your new address. Your address changes when you press the button behind it; if you mistyped it, change it again below.',
    },
    passkeysTitle: 'Passkeys',
    passkeysText: 'With a passkey you sign in without typing your email or a password, by unlocking your phone or computer. A passkey works on this site only.',
    noPasskeys: 'You have no passkeys yet.',
    passkeyName: 'Name',
    created: 'Added',
    lastUsed: 'Last used',
    neverUsed: 'never used',
    addPasskey: 'Add a passkey',
    newPasskeyName: 'Name of the new passkey',
    defaultPasskeyName: 'My passkey',
    rename: 'Rename',
    renameLabel: (name) => `New name for ${name}`,
    remove: 'Remove',
    yourPassword: 'Your password',
    orCode: 'or a code from your authenticator app',
    removeLast: 'To remove your last passkey, enter your password or a code from your authenticator app.',
    passkeyNameRule: 'The name must be 1 to 100 characters, with no invisible characters. Nothing was changed.',
    passkeyRefused: 'The passkey could not be added. Please try again. Nothing was changed.',
    passkeyUnverified: 'The passkey did not check that it is you (a PIN, fingerprint or face), so it was not added. Use a device or security key that asks for one. Nothing was changed.',
    passkeyProofNeeded: 'Removing your last passkey needs your password or a current code. Nothing was changed.',
    passkeysNeedScript: 'Adding a passkey needs JavaScript on this page and a browser that supports passkeys.',
  },
};
