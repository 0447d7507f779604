// The words of views/developer/*.eta, in tr and en: DeveloperController (src/developer/developer.controller.ts).
import type { ClientRule } from '../../../common/client-rule';
import { Language } from '../../../common/i18n/language';

/** What a change that shows no secret reports after its redirect back to the portal (`?done=`). */
export const DONE_NOTICES = ['client_updated', 'client_deleted', 'api_key_revoked'] as const;
export type DoneNotice = (typeof DONE_NOTICES)[number];

/**
 * Every rule a portal form can be refused by, each said in the reader's language: the registration
 * rules of the CLI and the portal's own. The developer controller looks its refusal up here, so a rule
 * added there without words here does not compile.
 */
export type PortalRule = ClientRule | 'client_type' | 'redirect_uri_count' | 'key_name_length' | 'key_name_characters';

interface DeveloperCatalogue {
  title: string;
  intro: string;
  applications: string;
  noApplications: string;
  count: (n: number, max: number) => string;
  atLimit: (max: number) => string;
  clientId: string;
  clientType: string;
  types: { confidential: string; publicType: string };
  typeHints: { confidential: string; publicType: string };
  scopes: string;
  /** The Device Authorization Grant (RFC 8628) checkbox of the register form, and its hint. */
  deviceFlow: string;
  deviceFlowHint: string;
  redirectUris: string;
  redirectUrisHint: string;
  created: string;
  /** Whether the operator vouches for the application (docs/integrate-with-oauth.md), and what that means for its users. */
  verification: string;
  verified: string;
  unverified: string;
  verifiedHint: string;
  unverifiedHint: string;
  edit: string;
  save: string;
  rotateSecret: string;
  rotateHint: string;
  deleteApplication: string;
  deleteWarning: string;
  deleteConfirm: string;
  register: string;
  registerTitle: string;
  name: string;
  credentialsTitle: string;
  newSecretTitle: string;
  clientSecret: string;
  copyNow: string;
  publicNoSecret: string;
  apiKeys: string;
  apiKeysIntro: string;
  noApiKeys: string;
  keyCount: (n: number, max: number) => string;
  keyAtLimit: (max: number) => string;
  keyName: string;
  prefix: string;
  lastUsed: string;
  lastUsedHint: string;
  never: string;
  status: string;
  live: string;
  revoked: string;
  revoke: string;
  createKey: string;
  newKeyTitle: string;
  apiKey: string;
  done: Record<DoneNotice, string>;
  refused: string;
  rules: Record<PortalRule, string>;
  /** After `redirect_uri_not_canonical`: the form to write. */
  writeAs: (uri: string) => string;
  limitClients: (max: number) => string;
  limitApiKeys: (max: number) => string;
}

/** Every word of the developer portal, in both languages. */
export const DEVELOPER_MESSAGES: Record<Language, DeveloperCatalogue> = {
  tr: {
    title: 'Geliştirici portalı',
    intro: 'Kullanıcılarınızın OAuth 2.0 ile oturum açtığı uygulamalarınızı kaydedin ve API anahtarlarınızı yönetin. Burada yaptığınız her şeyi yalnızca siz görür ve değiştirebilirsiniz.',
    applications: 'Uygulamalarınız',
    noApplications: 'Henüz kayıtlı bir uygulamanız yok.',
    count: (n, max) => `${max} uygulama hakkınızın ${n} tanesini kullanıyorsunuz.`,
    atLimit: (max) => `${max} uygulama sınırına ulaştınız: yenisini kaydetmek için önce birini silin.`,
    clientId: 'İstemci kimliği (client_id)',
    clientType: 'Uygulama türü',
    types: { confidential: 'Gizli (sunucuda çalışan, gizli anahtarı olan)', publicType: 'Açık (tarayıcıda ya da mobilde çalışan, gizli anahtarsız; PKCE zorunlu)' },
    typeHints: { confidential: 'Gizli', publicType: 'Açık' },
    scopes: 'İzinler (scope)',
    deviceFlow: 'Cihaz akışı (device flow)',
    deviceFlowHint: 'Komut satırı araçları ve televizyonlar gibi tarayıcısı olmayan cihazlar, kullanıcıya bir kod gösterip oturumu başka bir cihazda açtırabilir (RFC 8628).',
    redirectUris: 'Yönlendirme adresleri',
    redirectUrisHint:
      'Her satıra bir adres. https olmalı (yalnızca localhost, 127.0.0.1 ve [::1] için http); # parçası içeremez. Birebir karşılaştırılır; yalnızca 127.0.0.1 ve [::1] adreslerinde port farklı olabilir. Yalnızca cihaz akışını kullanan bir uygulama için boş bırakın.',
    created: 'Oluşturulma',
    verification: 'Doğrulama',
    verified: 'İşletmeci tarafından doğrulandı',
    unverified: 'İşletmeci tarafından doğrulanmamış',
    verifiedHint: 'İzin sayfasında uyarı yoktur; hatalar uygulamanıza doğrudan gönderilir.',
    unverifiedHint: 'Kullanıcılarınız izin sayfasında bir uyarı görür; daha önce izin vermemiş olanlar bir hatada önce bu hizmetin bir sayfasında durur. Doğrulatmak için işletmeciye başvurun.',
    edit: 'Düzenle',
    save: 'Kaydet',
    rotateSecret: 'Gizli anahtarı yenile',
    rotateHint: 'Yeni gizli anahtar bir kez gösterilir; eskisi hemen geçersiz olur.',
    deleteApplication: 'Uygulamayı sil',
    deleteWarning: 'Silinen uygulamanın tüm belirteçleri hemen geçersiz olur ve kullanıcılarının izinleri silinir. Bu geri alınamaz.',
    deleteConfirm: 'Evet, sil',
    register: 'Uygulamayı kaydet',
    registerTitle: 'Uygulama kaydet',
    name: 'Ad',
    credentialsTitle: 'Uygulamanızın kimlik bilgileri',
    newSecretTitle: 'Yeni gizli anahtar',
    clientSecret: 'Gizli anahtar (client_secret)',
    copyNow: 'Gizli anahtarı şimdi kopyalayıp güvenli bir yere kaydedin: bir daha gösterilmeyecek.',
    publicNoSecret: 'Açık bir uygulamanın gizli anahtarı yoktur: belirteç isteklerinde PKCE kullanın.',
    apiKeys: 'API anahtarları',
    apiKeysIntro: 'API anahtarı, X-Api-Key başlığında gönderildiğinde daha yüksek bir istek sınırı sağlar (standart seviye).',
    noApiKeys: 'Henüz bir API anahtarınız yok.',
    keyCount: (n, max) => `${max} etkin anahtar hakkınızın ${n} tanesini kullanıyorsunuz.`,
    keyAtLimit: (max) => `${max} etkin anahtar sınırına ulaştınız: yenisi için önce birini iptal edin.`,
    keyName: 'Anahtarın adı',
    prefix: 'Ön ek',
    lastUsed: 'Son kullanım',
    lastUsedHint: 'Son kullanım en fazla dakikada bir kaydedilir.',
    never: 'hiç',
    status: 'Durum',
    live: 'Etkin',
    revoked: 'İptal edildi',
    revoke: 'İptal et',
    createKey: 'API anahtarı oluştur',
    newKeyTitle: 'Yeni API anahtarınız',
    apiKey: 'API anahtarı',
    done: {
      client_updated: 'Uygulama kaydedildi.',
      client_deleted: 'Uygulama ve tüm belirteçleri silindi.',
      api_key_revoked: 'API anahtarı iptal edildi.',
    },
    refused: 'Hiçbir şey değiştirilmedi:',
    rules: {
      name_length: 'Ad 1 ile 200 karakter arasında olmalı.',
      name_characters: 'Ad denetim karakteri ya da görünmeyen biçim karakteri (yazı yönünü değiştiren ya da sıfır genişlikli karakterler gibi) içeremez.',
      name_lookalike: 'Ad, platformun kendi adına benziyor (aynı ya da benzer görünen harflerle yazılmış); uygulamanıza kendi adını verin.',
      name_mixed_scripts: 'Adın bir sözcüğü birden çok alfabenin harflerini karıştırıyor (örneğin Latin harflerinin arasında Kiril ya da Yunan harfleri): her sözcüğü tek bir alfabeyle yazın.',
      redirect_uri_missing: 'En az bir yönlendirme adresi girin.',
      redirect_uri_count: 'En fazla 10 yönlendirme adresi girebilirsiniz.',
      redirect_uri_too_long: 'Bir yönlendirme adresi 2000 karakterden uzun olamaz.',
      redirect_uri_not_absolute: 'Her yönlendirme adresi https:// ile başlayan tam bir adres olmalı.',
      redirect_uri_fragment: 'Yönlendirme adresi # parçası içeremez.',
      redirect_uri_credentials: 'Yönlendirme adresi kullanıcı adı ya da parola içeremez.',
      redirect_uri_characters:
        'Yönlendirme adresinde yalnızca ASCII karakterler olabilir: boşluk ya da denetim karakteri olamaz; uluslararası bir alan adını xn-- biçiminde yazın, diğer karakterleri yüzde kodlamasıyla (%XX) yazın.',
      redirect_uri_forbidden_character: 'Yönlendirme adresi *, ;, , ya da \\ karakterlerini içeremez.',
      redirect_uri_slashes: 'Yönlendirme adresinde şemadan sonra // gelmeli (https://alan-adi/yol).',
      redirect_uri_host:
        'Yönlendirme adresinin sunucusu bir alan adı (harf, rakam, kısa çizgi ve nokta; uluslararası adlar xn-- biçiminde), bir IPv4 adresi ya da köşeli parantez içinde bir IPv6 adresi olmalı.',
      redirect_uri_http: 'http yalnızca localhost, 127.0.0.1 ve [::1] için kullanılabilir; https kullanın.',
      redirect_uri_scheme: 'Yönlendirme adresi https kullanmalı (localhost için http).',
      redirect_uri_not_canonical: 'Yönlendirme adresleri birebir karşılaştırılır, bu yüzden bir URL ayrıştırıcısının verdiği biçimde yazılmalı (küçük harfli sunucu adı, varsayılan port yazılmadan, en az / yolu ile).',
      scope_missing: 'En az bir izin seçin.',
      scope_unknown: 'Bilinmeyen bir izin seçildi.',
      client_page_uri: 'Uygulamanın sayfa veya logo adresi geçersiz: https ile başlayan, kimlik bilgisi içermeyen bir adres olmalı.',
      client_id_taken: 'Bu istemci kimliği kullanımda.',
      public_client: 'Açık bir uygulamanın gizli anahtarı yoktur.',
      client_type: 'Uygulama türü olarak Gizli ya da Açık seçin.',
      key_name_length: 'Anahtarın adı 1 ile 200 karakter arasında olmalı.',
      key_name_characters: 'Anahtarın adı denetim karakteri içeremez.',
    },
    writeAs: (uri) => `Şöyle yazın: ${uri}`,
    limitClients: (max) => `En fazla ${max} uygulama kaydedebilirsiniz. Yenisini kaydetmek için önce birini silin.`,
    limitApiKeys: (max) => `En fazla ${max} etkin API anahtarınız olabilir. Yenisi için önce birini iptal edin.`,
  },
  en: {
    title: 'Developer portal',
    intro: 'Register the applications your users sign in to with OAuth 2.0, and manage your API keys. What you make here only you can see and change.',
    applications: 'Your applications',
    noApplications: 'You have not registered an application yet.',
    count: (n, max) => `You use ${n} of your ${max} applications.`,
    atLimit: (max) => `You have reached the limit of ${max} applications: delete one to register another.`,
    clientId: 'Client ID (client_id)',
    clientType: 'Application type',
    types: { confidential: 'Confidential (runs on a server, has a secret)', publicType: 'Public (runs in a browser or on a phone, no secret; PKCE required)' },
    typeHints: { confidential: 'Confidential', publicType: 'Public' },
    scopes: 'Scopes',
    deviceFlow: 'Device flow',
    deviceFlowHint: 'Devices without a browser, such as command-line tools and TVs, may show the user a code and have them sign in on another device (RFC 8628).',
    redirectUris: 'Redirect URIs',
    redirectUrisHint: 'One URI a line. https (http only for localhost, 127.0.0.1 and [::1]); no # fragment. Compared exactly, except that on 127.0.0.1 and [::1] any port matches. Leave empty for an application that only uses the device flow.',
    created: 'Created',
    verification: 'Verification',
    verified: 'Verified by the operator',
    unverified: 'Not verified by the operator (unverified)',
    verifiedHint: 'Its consent page carries no warning, and errors go back to your application directly.',
    unverifiedHint: 'Your users see a warning on its consent page, and an error stops on a page of this service unless they allowed it before. Ask the operator to verify it.',
    edit: 'Edit',
    save: 'Save',
    rotateSecret: 'Rotate secret',
    rotateHint: 'The new secret is shown once; the old one stops working at once.',
    deleteApplication: 'Delete application',
    deleteWarning: 'Deleting the application revokes all its tokens at once and forgets its users’ consents. This cannot be undone.',
    deleteConfirm: 'Yes, delete',
    register: 'Register application',
    registerTitle: 'Register application',
    name: 'Name',
    credentialsTitle: 'Your application’s credentials',
    newSecretTitle: 'New client secret',
    clientSecret: 'Client secret (client_secret)',
    copyNow: 'Copy the secret now and keep it somewhere safe: it is not shown again.',
    publicNoSecret: 'A public application has no secret: use PKCE in its token requests.',
    apiKeys: 'API keys',
    apiKeysIntro: 'An API key, sent in the X-Api-Key header, raises your rate limit (standard tier).',
    noApiKeys: 'You have no API keys yet.',
    keyCount: (n, max) => `You use ${n} of your ${max} live keys.`,
    keyAtLimit: (max) => `You have reached the limit of ${max} live keys: revoke one to create another.`,
    keyName: 'Key name',
    prefix: 'Prefix',
    lastUsed: 'Last used',
    lastUsedHint: 'Last use is recorded at most once a minute.',
    never: 'never',
    status: 'Status',
    live: 'Live',
    revoked: 'Revoked',
    revoke: 'Revoke',
    createKey: 'Create API key',
    newKeyTitle: 'Your new API key',
    apiKey: 'API key',
    done: {
      client_updated: 'The application was saved.',
      client_deleted: 'The application and all its tokens were deleted.',
      api_key_revoked: 'The API key was revoked.',
    },
    refused: 'Nothing was changed:',
    rules: {
      name_length: 'The name must be 1 to 200 characters long.',
      name_characters: 'The name must not contain control characters or invisible formatting characters (such as direction overrides or zero-width characters).',
      name_lookalike: 'The name looks like the platform\'s own name (the same, or written with letters that look alike); give your application a name of its own.',
      name_mixed_scripts: 'A word of the name mixes letters of different scripts (such as Cyrillic or Greek letters among Latin ones): write each word in one script.',
      redirect_uri_missing: 'Enter at least one redirect URI.',
      redirect_uri_count: 'Enter at most 10 redirect URIs.',
      redirect_uri_too_long: 'A redirect URI must not be longer than 2000 characters.',
      redirect_uri_not_absolute: 'Each redirect URI must be a full address starting with https://.',
      redirect_uri_fragment: 'A redirect URI must not contain a # fragment.',
      redirect_uri_credentials: 'A redirect URI must not contain a user name or password.',
      redirect_uri_characters:
        'A redirect URI may hold only ASCII characters, and no spaces or control characters: write an international domain name in its xn-- form and percent-encode (%XX) other characters.',
      redirect_uri_forbidden_character: 'A redirect URI must not contain *, ;, , or \\.',
      redirect_uri_slashes: 'A redirect URI needs // after its scheme (https://host/path).',
      redirect_uri_host:
        'The host of a redirect URI must be a domain name (letters, digits, hyphens and dots; an international name in its xn-- form), an IPv4 address or an IPv6 address in brackets.',
      redirect_uri_http: 'http is allowed only for localhost, 127.0.0.1 and [::1]; use https.',
      redirect_uri_scheme: 'A redirect URI must use https (http for localhost).',
      redirect_uri_not_canonical: 'Redirect URIs are compared exactly, so write each in the form a URL parser gives it (a lower-case host, no default port, a path of at least /).',
      scope_missing: 'Choose at least one scope.',
      scope_unknown: 'An unknown scope was chosen.',
      client_page_uri: 'The application\'s page or logo address is invalid: it must be an https address without credentials.',
      client_id_taken: 'This client ID is taken.',
      public_client: 'A public application has no secret.',
      client_type: 'Choose Confidential or Public as the application type.',
      key_name_length: 'The key name must be 1 to 200 characters long.',
      key_name_characters: 'The key name must not contain control characters.',
    },
    writeAs: (uri) => `Write it as: ${uri}`,
    limitClients: (max) => `You can register at most ${max} applications. Delete one to register another.`,
    limitApiKeys: (max) => `You can have at most ${max} live API keys. Revoke one to create another.`,
  },
};
