// The words of views/device/*.eta, in tr and en: DeviceController (src/oauth/device/device.controller.ts).
import { Language } from '../../common/i18n/language';

interface DeviceCatalogue {
  title: string;
  intro: string;
  codeLabel: string;
  codeHint: string;
  submit: string;
  wrongCode: string;
  throttled: string;
  /** The consent page: the code the user entered, to compare with the device's (RFC 8628 §5.4). */
  codeOnDevice: string;
  /** An unverified application's consent page in the device flow: no redirect, the device gets the access. */
  unverifiedDevice: string;
  doneTitle: string;
  approved: (client: string) => string;
  denied: (client: string) => string;
  backToDevice: string;
  /** After denying: the device learns it on its next poll (`access_denied`). */
  backToDeviceDenied: string;
  /** An error page of the device flow (an expired form, a failure): what to do, and the link back to the code page. */
  retryAdvice: string;
  enterCode: string;
  /** After approving: where the application is now listed, and its access can be revoked. */
  connectedApps: string;
  /** After denying: the way on from here. */
  toAccount: string;
}

/** The words of the device flow's pages (RFC 8628 §3.3), in both languages. */
export const DEVICE_MESSAGES: Record<Language, DeviceCatalogue> = {
  tr: {
    title: 'Cihazınızı bağlayın',
    intro: 'Cihazınızın ekranında gösterilen kodu girin.',
    codeLabel: 'Kod',
    codeHint: '8 harf, örneğin BCDF-GHJK. Büyük ya da küçük harfle, tireli ya da tiresiz yazabilirsiniz.',
    submit: 'Devam et',
    wrongCode: 'Bu kod geçerli değil: yanlış yazılmış, süresi dolmuş ya da daha önce kullanılmış olabilir. Cihazınızdaki kodu yeniden girin.',
    throttled: 'Çok fazla yanlış kod girildi. Lütfen birkaç dakika sonra yeniden deneyin.',
    codeOnDevice: 'Girdiğiniz kod: {}. Cihazınızın ekranındaki kodla aynı olduğundan emin olun.',
    unverifiedDevice: 'İzin verirseniz, bu kodu size gösteren cihaz hesabınıza erişebilir. Bu kodu başkası size gönderdiyse izin vermeyin.',
    doneTitle: 'Cihazınıza dönün',
    approved: (client) => `${client} uygulamasına izin verdiniz.`,
    denied: (client) => `${client} uygulamasının isteğini reddettiniz; cihaza hiçbir erişim verilmedi.`,
    backToDevice: 'Cihazınıza dönebilirsiniz; o kendiliğinden devam edecek. Bu sayfayı kapatabilirsiniz.',
    backToDeviceDenied: 'Cihazınız bir sonraki denemesinde erişimin reddedildiğini görecek. Bu sayfayı kapatabilirsiniz.',
    retryAdvice: 'Cihazınızın ekranındaki kodu yeniden girin.',
    enterCode: 'Kodu girin',
    connectedApps: 'Hesabınıza bağlı uygulamaları görün',
    toAccount: 'Hesabınıza gidin',
  },
  en: {
    title: 'Connect your device',
    intro: 'Enter the code shown on your device’s screen.',
    codeLabel: 'Code',
    codeHint: '8 letters, for example BCDF-GHJK. Upper or lower case, with or without the hyphen.',
    submit: 'Continue',
    wrongCode: 'This code is not valid: it may be mistyped, expired or already used. Enter the code on your device again.',
    throttled: 'Too many wrong codes. Please try again in a few minutes.',
    codeOnDevice: 'The code you entered: {}. Make sure it is the same as the one on your device’s screen.',
    unverifiedDevice: 'If you allow it, the device that showed you this code gets access to your account. If someone else sent you this code, deny.',
    doneTitle: 'Go back to your device',
    approved: (client) => `You allowed ${client}.`,
    denied: (client) => `You denied ${client}; the device was given no access.`,
    backToDevice: 'You can go back to your device: it will continue on its own. You may close this page.',
    backToDeviceDenied: 'Your device will learn on its next try that access was denied. You may close this page.',
    retryAdvice: 'Enter the code shown on your device again.',
    enterCode: 'Enter the code',
    connectedApps: 'See the apps connected to your account',
    toAccount: 'Go to your account',
  },
};
