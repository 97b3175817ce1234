// A short news item per language, each with a number and a date: what the listening tests narrate and the languages
// benchmark (bench/languages.ts) times. The same story everywhere, in plain words of the language's news.
export interface News {
  /** The item's language, a service code. */
  language: string;
  /** The language's name, for test titles and tables. */
  name: string;
  title: string;
  body: string;
  /** The most of the written text the recognizer may miss: words, or characters for Japanese and Chinese. */
  bound: number;
}

export const NEWS: News[] = [
  {
    language: 'es_ES',
    name: 'Spanish',
    title: 'Sevilla plantará árboles',
    body: '<p>El ayuntamiento de Sevilla aprobó el 14 de marzo un plan para plantar 3200 árboles en los barrios del norte. Las obras empezarán en mayo y durarán dos años.</p>',
    bound: 0.15,
  },
  {
    language: 'fr_FR',
    name: 'French',
    title: 'Lyon plante des arbres',
    body: '<p>La mairie de Lyon a approuvé le 14 mars un projet pour planter 3200 arbres dans les quartiers du nord. Les travaux commenceront en mai et dureront deux ans.</p>',
    bound: 0.15,
  },
  {
    language: 'it_IT',
    name: 'Italian',
    title: 'Bologna pianta alberi',
    body: '<p>Il comune di Bologna ha approvato il 14 marzo un piano per piantare 3200 alberi nei quartieri del nord. I lavori inizieranno a maggio e dureranno due anni.</p>',
    bound: 0.15,
  },
  {
    language: 'pt_BR',
    name: 'Portuguese (Brazil)',
    title: 'Curitiba vai plantar árvores',
    body: '<p>A prefeitura de Curitiba aprovou no dia 14 de março um plano para plantar 3200 árvores nos bairros da zona norte. As obras começam em maio e vão durar dois anos.</p>',
    bound: 0.15,
  },
  {
    language: 'de_DE',
    name: 'German',
    title: 'Leipzig pflanzt Bäume',
    body: '<p>Der Stadtrat von Leipzig hat am 14. März beschlossen, 3200 Bäume in den Vierteln im Norden zu pflanzen. Die Arbeiten beginnen im Mai und dauern zwei Jahre.</p>',
    bound: 0.15,
  },
  {
    language: 'ru_RU',
    name: 'Russian',
    title: 'Казань посадит деревья',
    body: '<p>Городской совет Казани 14 марта утвердил план посадки 3200 деревьев в северных районах города. Работы начнутся в мае и продлятся два года.</p>',
    bound: 0.2,
  },
  {
    language: 'hi_IN',
    name: 'Hindi',
    title: 'शहर में नए पेड़',
    body: '<p>नगर निगम ने 14 मार्च को शहर के उत्तरी इलाकों में 3200 नए पेड़ लगाने की योजना को मंज़ूरी दी। काम मई में शुरू होगा और दो साल तक चलेगा।</p>',
    bound: 0.3,
  },
  {
    language: 'ja_JP',
    name: 'Japanese',
    title: '東京都が木を植えます',
    body: '<p>東京都は3月14日、北部の地区に3200本の木を植える計画を発表しました。工事は5月に始まり、2年かかる見込みです。</p>',
    bound: 0.15,
  },
  {
    language: 'zh_CN',
    name: 'Mandarin',
    title: '北京将种新树',
    body: '<p>北京市政府3月14日宣布，将在城市北部种3200棵树。工程将于5月开始，预计持续两年。</p>',
    bound: 0.15,
  },
];
