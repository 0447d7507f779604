import { INDUSTRY_NAMES } from '../database/migrations/1763700000001-seed-industries';
import { foldName } from '../common/text/name-folding';

/** A generated demo startup, ready to insert. */
export interface DemoStartup {
  name: string;
  /** `foldName(name)`. */
  sortName: string;
  slug: string;
  description: string;
  website: string | null;
  foundedYear: number;
  city: string;
  /** An entry of INDUSTRY_NAMES. */
  industry: string;
}

/** The fixed seed: the demo data is the same on every machine and every run. */
const SEED = 0x5eed_2025;
export const FIRST_FOUNDED_YEAR = 2005;
export const LAST_FOUNDED_YEAR = 2025;

/** mulberry32: a tiny, fast, well-distributed 32-bit PRNG; plenty for demo data. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cities weighted roughly by the size of their startup scenes; `in` is the locative ("İstanbul'da"). */
const CITIES: Array<{ name: string; in: string; weight: number }> = [
  { name: 'İstanbul', in: "İstanbul'da", weight: 52 },
  { name: 'Ankara', in: "Ankara'da", weight: 13 },
  { name: 'İzmir', in: "İzmir'de", weight: 10 },
  { name: 'Bursa', in: "Bursa'da", weight: 3 },
  { name: 'Antalya', in: "Antalya'da", weight: 3 },
  { name: 'Eskişehir', in: "Eskişehir'de", weight: 3 },
  { name: 'Kocaeli', in: "Kocaeli'de", weight: 3 },
  { name: 'Konya', in: "Konya'da", weight: 2 },
  { name: 'Gaziantep', in: "Gaziantep'te", weight: 2 },
  { name: 'Kayseri', in: "Kayseri'de", weight: 2 },
  { name: 'Trabzon', in: "Trabzon'da", weight: 2 },
  { name: 'Adana', in: "Adana'da", weight: 1 },
  { name: 'Mersin', in: "Mersin'de", weight: 1 },
  { name: 'Samsun', in: "Samsun'da", weight: 1 },
  { name: 'Denizli', in: "Denizli'de", weight: 1 },
  { name: 'Sakarya', in: "Sakarya'da", weight: 1 },
];

/** Brand-like Turkish words the names are built from. */
const ROOTS = [
  'Kuzey', 'Poyraz', 'Lodos', 'Mavi', 'Yonca', 'Çınar', 'Defne', 'Lale', 'Nazar', 'Pusula', 'Atlas', 'Kervan',
  'Galata', 'Boğaz', 'Ege', 'Toros', 'Fırat', 'Dicle', 'Anadolu', 'Marmara', 'Kapadokya', 'Yıldız', 'Güneş', 'Deniz',
  'Bulut', 'Şimşek', 'Rüzgar', 'Bereket', 'Hasat', 'Tohum', 'Fidan', 'Kök', 'Yaprak', 'Orman', 'Pınar', 'Kaynak',
  'Köprü', 'Liman', 'Rota', 'Yol', 'Akıl', 'Bilge', 'Usta', 'Kalfa', 'Pazar', 'Çarşı', 'Sepet', 'Kasa',
  'Cüzdan', 'Kumbara', 'Altın', 'Gümüş', 'Bakır', 'Çelik', 'Tuğla', 'Yuva', 'Konak', 'Sofra', 'Lokma', 'Kahve',
  'Simit', 'Lezzet', 'Şifa', 'Derman', 'Nabız', 'Kalem', 'Defter', 'Harf', 'Nota', 'Sahne', 'Perde', 'Ekran',
  'Zar', 'Tavla', 'Kule', 'Kale', 'Kapı', 'Anahtar', 'Kalkan', 'Nöbet', 'Sinyal', 'Dalga', 'Işık', 'Fener',
  'Yelken', 'Kürek', 'Çapa', 'Dümen', 'Martı', 'Leylek', 'Turna', 'Şahin', 'Doğan', 'Kartal', 'Atmaca', 'Ceylan',
  'Vaha', 'Nil', 'Sedir', 'Ardıç', 'Ilgaz', 'Erciyes', 'Uludağ', 'Zeytin', 'Incir', 'Nar', 'Ayva', 'Fındık',
  'Kiraz', 'Lavanta', 'Papatya', 'Mercan', 'İnci', 'Safir', 'Zümrüt', 'Akik', 'Kehribar', 'Yakut', 'Elmas', 'Beyaz',
];

/** Generic name endings: `KuzeyPay` style (joined) and `Kuzey Labs` style (spaced). */
const JOINED_ENDINGS = ['Pay', 'Soft', 'Tech', 'Data', 'Hub', 'Go', 'Net', 'Bot', 'App', 'Box', 'Lab', 'Link', 'Sense', 'Mind', 'Wise', 'Way', 'Flow', 'Kit', 'ly', 'io'];
const SPACED_ENDINGS = ['Teknoloji', 'Yazılım', 'Bilişim', 'Dijital', 'Labs', 'Analitik', 'Studio', 'AI', 'Ventures', 'Sistem', 'Platform', 'Cloud'];

interface IndustryProfile {
  /** Words that fit a name in this industry. */
  endings: string[];
  /** What it offers, as the end of a sentence ("… için … sunuyor"). */
  offers: string[];
  /** Who it serves, in the genitive-free "… için" form. */
  audiences: string[];
}

const PROFILES: Record<string, IndustryProfile> = {
  Agritech: {
    endings: ['Tarım', 'Agro', 'Hasat', 'Farm'],
    offers: ['sensörlerle tarla verisini toplayıp sulama önerileri sunuyor', 'hasat tahmini yapan bir uydu analitiği geliştiriyor', 'üreticiyi doğrudan alıcıyla buluşturan bir pazar yeri işletiyor'],
    audiences: ['çiftçiler', 'kooperatifler', 'seracılar'],
  },
  Biotech: {
    endings: ['Bio', 'Gen', 'Life', 'Cell'],
    offers: ['yerli enzim ve biyomalzeme üretiyor', 'hızlı tanı kitleri geliştiriyor', 'mikrobiyom analizine dayalı çözümler sunuyor'],
    audiences: ['laboratuvarlar', 'hastaneler', 'gıda üreticileri'],
  },
  Cleantech: {
    endings: ['Green', 'Eko', 'Karbon', 'Clean'],
    offers: ['karbon ayak izini ölçen ve azaltan bir platform geliştiriyor', 'atık yönetimini dijitalleştiriyor', 'geri dönüşüm süreçlerini izlenebilir kılıyor'],
    audiences: ['sanayi kuruluşları', 'belediyeler', 'ihracatçı firmalar'],
  },
  Cybersecurity: {
    endings: ['Secure', 'Guard', 'Shield', 'Güvenlik'],
    offers: ['saldırı yüzeyini sürekli tarayan bir güvenlik platformu sunuyor', 'oltalama saldırılarına karşı çalışan eğitimi veriyor', 'bulut altyapılarında sıfır güven erişimi sağlıyor'],
    audiences: ['bankalar', 'KOBİ’ler', 'kamu kurumları'],
  },
  'Deep Tech': {
    endings: ['Quantum', 'Robotik', 'Foton', 'Lab'],
    offers: ['endüstriyel robot kollarına görme sistemleri geliştiriyor', 'yeni nesil sensör çipleri tasarlıyor', 'kuantum dayanıklı şifreleme üzerine çalışıyor'],
    audiences: ['otomotiv üreticileri', 'savunma sanayii', 'araştırma merkezleri'],
  },
  'E-commerce': {
    endings: ['Shop', 'Sepet', 'Market', 'Store'],
    offers: ['yerel markaları tek vitrinde topluyor', 'sosyal ticarete canlı yayın altyapısı sunuyor', 'aynı gün teslimatlı online alışveriş sağlıyor'],
    audiences: ['küçük markalar', 'tasarımcılar', 'online alışverişçiler'],
  },
  Edtech: {
    endings: ['Akademi', 'Learn', 'Okul', 'Edu'],
    offers: ['kişiselleştirilmiş ders planları hazırlayan bir öğrenme platformu sunuyor', 'sınavlara hazırlıkta yapay zekâ destekli koçluk veriyor', 'kodlama eğitimini oyunlaştırıyor'],
    audiences: ['lise öğrencileri', 'öğretmenler', 'üniversite adayları'],
  },
  Energy: {
    endings: ['Enerji', 'Volt', 'Solar', 'Power'],
    offers: ['çatı tipi güneş santrali kurulumunu uçtan uca yönetiyor', 'elektrikli araç şarj ağı işletiyor', 'enerji tüketimini anlık izleyen akıllı sayaçlar sunuyor'],
    audiences: ['site yönetimleri', 'fabrikalar', 'elektrikli araç sahipleri'],
  },
  Fintech: {
    endings: ['Pay', 'Finans', 'Para', 'Kredi'],
    offers: ['anında ödeme altyapısı sunuyor', 'fatura ve tahsilat süreçlerini otomatikleştiriyor', 'birikim ve yatırımı kolaylaştırıyor'],
    audiences: ['küçük işletmeler', 'serbest çalışanlar', 'e-ticaret siteleri'],
  },
  Foodtech: {
    endings: ['Lezzet', 'Mutfak', 'Food', 'Sofra'],
    offers: ['bulut mutfak altyapısı sağlıyor', 'gıda israfını azaltan bir uygulama geliştiriyor', 'yerel üreticilerden taze ürün teslim ediyor'],
    audiences: ['restoranlar', 'oteller', 'şehirde yaşayan aileler'],
  },
  Gaming: {
    endings: ['Games', 'Oyun', 'Play', 'Studio'],
    offers: ['hiper-casual mobil oyunlar geliştiriyor', 'oyun içi reklam ve analitik araçları sunuyor', 'çok oyunculu strateji oyunları üretiyor'],
    audiences: ['mobil oyuncular', 'oyun stüdyoları', 'e-spor takımları'],
  },
  Healthtech: {
    endings: ['Sağlık', 'Health', 'Med', 'Care'],
    offers: ['uzaktan hasta takibine yönelik giyilebilir cihazlar geliştiriyor', 'online randevu ve tele-sağlık hizmeti sunuyor', 'radyoloji görüntülerini yapay zekâ ile önceliklendiriyor'],
    audiences: ['kronik hastalar', 'klinikler', 'aile hekimleri'],
  },
  'HR Tech': {
    endings: ['Kariyer', 'Talent', 'İK', 'Team'],
    offers: ['işe alım süreçlerini uçtan uca dijitalleştiriyor', 'çalışan bağlılığını ölçen anketler sunuyor', 'bordro ve izin yönetimini tek ekranda topluyor'],
    audiences: ['insan kaynakları ekipleri', 'büyüyen şirketler', 'iş arayanlar'],
  },
  Insurtech: {
    endings: ['Sigorta', 'Sure', 'Poliçe', 'Risk'],
    offers: ['dakikalar içinde poliçe karşılaştırması yapıyor', 'kullanıma dayalı araç sigortası sunuyor', 'hasar süreçlerini fotoğrafla hızlandırıyor'],
    audiences: ['sürücüler', 'acenteler', 'küçük işletmeler'],
  },
  IoT: {
    endings: ['Sensör', 'IoT', 'Connect', 'Akıllı'],
    offers: ['soğuk zinciri kablosuz sensörlerle izliyor', 'akıllı bina otomasyonu sağlıyor', 'makinelerde kestirimci bakım yapıyor'],
    audiences: ['lojistik firmaları', 'fabrikalar', 'bina yöneticileri'],
  },
  Legaltech: {
    endings: ['Hukuk', 'Legal', 'Sözleşme', 'Lex'],
    offers: ['sözleşme inceleme sürecini yapay zekâ ile hızlandırıyor', 'dava takibini bulutta topluyor', 'KVKK uyumluluğunu otomatikleştiriyor'],
    audiences: ['hukuk büroları', 'şirket avukatları', 'girişimciler'],
  },
  Logistics: {
    endings: ['Lojistik', 'Kargo', 'Rota', 'Cargo'],
    offers: ['son kilometre teslimatını optimize ediyor', 'yük ile boş kamyonu buluşturan bir platform işletiyor', 'depo yönetimini robotlarla otomatikleştiriyor'],
    audiences: ['e-ticaret şirketleri', 'nakliyeciler', 'üreticiler'],
  },
  Marketplace: {
    endings: ['Pazar', 'Market', 'Bazaar', 'Çarşı'],
    offers: ['ikinci el ürün alım satımını güvenli hale getiriyor', 'usta ve hizmet verenleri müşterilerle buluşturuyor', 'el yapımı ürünlere özel bir pazar yeri işletiyor'],
    audiences: ['ev sahipleri', 'zanaatkârlar', 'bireysel satıcılar'],
  },
  'Media & Entertainment': {
    endings: ['Medya', 'Media', 'Sahne', 'Yapım'],
    offers: ['podcast üretimi ve dağıtımı yapıyor', 'yerli içeriğe özel bir dijital yayın platformu işletiyor', 'etkinlik biletlemeyi kolaylaştırıyor'],
    audiences: ['içerik üreticileri', 'markalar', 'dinleyiciler'],
  },
  Mobility: {
    endings: ['Mobil', 'Drive', 'Move', 'Yol'],
    offers: ['paylaşımlı elektrikli scooter hizmeti sunuyor', 'filo yönetimini tek panelden yapıyor', 'şehir içi ulaşımı tek uygulamada birleştiriyor'],
    audiences: ['şehirliler', 'filo sahipleri', 'belediyeler'],
  },
  Proptech: {
    endings: ['Emlak', 'Ev', 'Home', 'Konut'],
    offers: ['kiralama süreçlerini dijitalleştiriyor', 'gayrimenkul değerlemesini veriyle yapıyor', 'site yönetimini mobil uygulamaya taşıyor'],
    audiences: ['ev sahipleri', 'kiracılar', 'emlak ofisleri'],
  },
  'Retail Tech': {
    endings: ['Retail', 'Kasa', 'Raf', 'Store'],
    offers: ['mağaza içi müşteri analitiği sunuyor', 'akıllı raf ve stok takibi yapıyor', 'kasasız ödeme deneyimi geliştiriyor'],
    audiences: ['perakende zincirleri', 'bakkallar', 'AVM işletmecileri'],
  },
  SaaS: {
    endings: ['Cloud', 'Soft', 'Desk', 'Suite'],
    offers: ['ön muhasebe ve faturalama yazılımı sunuyor', 'müşteri destek süreçlerini tek panelde topluyor', 'ekip içi proje yönetimini kolaylaştırıyor'],
    audiences: ['KOBİ’ler', 'ajanslar', 'yazılım ekipleri'],
  },
  'Artificial Intelligence': {
    endings: ['AI', 'Zeka', 'Mind', 'Neural'],
    offers: ['Türkçe dil modelleri geliştiriyor', 'görüntü işleme ile kalite kontrol yapıyor', 'müşteri görüşmelerini konuşma analitiğiyle inceliyor'],
    audiences: ['çağrı merkezleri', 'üreticiler', 'kurumsal şirketler'],
  },
  'Travel & Hospitality': {
    endings: ['Travel', 'Tur', 'Otel', 'Rota'],
    offers: ['çevrim içi rezervasyon yazılımı sunuyor', 'kişiye özel gezi rotaları hazırlıyor', 'deneyim turlarını yerel rehberlerle buluşturuyor'],
    audiences: ['butik oteller', 'gezginler', 'seyahat acenteleri'],
  },
  'Web3 & Blockchain': {
    endings: ['Chain', 'Block', 'Token', 'Ledger'],
    offers: ['tedarik zincirini blokzincir üzerinde izlenebilir kılıyor', 'dijital kimlik doğrulama çözümleri geliştiriyor', 'varlıkların tokenizasyonuna altyapı sunuyor'],
    audiences: ['ihracatçılar', 'finans kuruluşları', 'geliştiriciler'],
  },
};

const TLDS = [
  { tld: 'com', weight: 40 },
  { tld: 'com.tr', weight: 30 },
  { tld: 'io', weight: 12 },
  { tld: 'ai', weight: 6 },
  { tld: 'co', weight: 6 },
  { tld: 'app', weight: 6 },
];

const TRANSLITERATION: Record<string, string> = { ç: 'c', ğ: 'g', ı: 'i', ö: 'o', ş: 's', ü: 'u', â: 'a', î: 'i', û: 'u' };

/** A URL-safe slug: Turkish letters transliterated, everything else dashes. */
export function slugify(name: string): string {
  return foldName(name)
    .replace(/[çğıöşüâîû]/g, (c) => TRANSLITERATION[c])
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function weighted<T extends { weight: number }>(random: () => number, items: readonly T[]): T {
  const total = items.reduce((sum, item) => sum + item.weight, 0);
  let roll = random() * total;
  for (const item of items) {
    roll -= item.weight;
    if (roll < 0) return item;
  }
  return items[items.length - 1];
}

/** The first letter in lower case, accents kept (`Çınar` → `çınar`), as the sequence has always had it. */
function lowerFirst(word: string): string {
  return word.charAt(0).normalize('NFC').replace(/[İIı]/g, 'i').toLowerCase() + word.slice(1);
}

/** One name candidate; short forms are likelier, three-word forms keep large sets unique. */
function candidateName(random: () => number, profile: IndustryProfile): string {
  const root = pick(random, ROOTS);
  const other = () => {
    let second = pick(random, ROOTS);
    while (second === root) second = pick(random, ROOTS);
    return second;
  };
  const ending = () => (random() < 0.6 ? pick(random, profile.endings) : pick(random, SPACED_ENDINGS));
  const roll = random();
  if (roll < 0.2) return root + pick(random, JOINED_ENDINGS);
  if (roll < 0.45) return `${root} ${ending()}`;
  if (roll < 0.55) return root + lowerFirst(other());
  if (roll < 0.7) return `${root} ${other()}`;
  return `${root} ${other()} ${ending()}`;
}

/**
 * The demo startups, always the same sequence: the first N of it for `seed --startups N`. Names and
 * slugs are unique within the sequence (a candidate whose slug is taken is drawn again).
 */
export function* demoStartups(): Generator<DemoStartup> {
  const random = mulberry32(SEED);
  const slugs = new Set<string>();
  for (let index = 0; ; index++) {
    const industry = pick(random, INDUSTRY_NAMES);
    const profile = PROFILES[industry];
    let name = candidateName(random, profile);
    for (let attempt = 0; slugs.has(slugify(name)) && attempt < 40; attempt++) name = candidateName(random, profile);
    // Past what the word lists can name uniquely: number the rest, as real registries do.
    for (let n = 2; slugs.has(slugify(name)); n++) name = `${name.replace(/ \d+$/, '')} ${n}`;
    const slug = slugify(name);
    slugs.add(slug);

    const city = weighted(random, CITIES);
    const foundedYear = FIRST_FOUNDED_YEAR + Math.floor(Math.pow(random(), 0.7) * (LAST_FOUNDED_YEAR - FIRST_FOUNDED_YEAR + 1));
    const offer = pick(random, profile.offers);
    const audience = pick(random, profile.audiences);
    const template = Math.floor(random() * 3);
    const description =
      template === 0
        ? `${name}, ${audience} için ${offer}.`
        : template === 1
          ? `${foundedYear} yılında ${city.in} kurulan ${name}, ${audience} için ${offer}.`
          : `${city.name} merkezli ${name}, ${audience} için ${offer}. Sektörü: ${industry}.`;
    const website = random() < 0.08 ? null : `https://${slug.replace(/-/g, '')}.${weighted(random, TLDS).tld}`;

    yield { name, sortName: foldName(name), slug, description, website, foundedYear, city: city.name, industry };
  }
}

/** The first `count` demo startups. */
export function generateDemoStartups(count: number): DemoStartup[] {
  const result: DemoStartup[] = [];
  if (count <= 0) return result;
  for (const startup of demoStartups()) {
    result.push(startup);
    if (result.length === count) break;
  }
  return result;
}
