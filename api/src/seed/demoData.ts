/**
 * The demo world: fictional events covering every kind of event the spec distinguishes, their BIBs
 * and photo counts, users, print products and the sponsor offer. Today in the demo is 2026-11-21:
 * events from 2027 (and December 2026) are upcoming.
 */

export const SEED_VERSION = 1;
export const DEMO_PASSWORD = 'Finish@2026';

export const THEMES = [
  { code: 'MAR', name: 'Marathon' },
  { code: 'HALF', name: 'Half marathon' },
  { code: 'TENK', name: '10K run' },
  { code: 'TRAIL', name: 'Trail run' },
] as const;

export type SceneKind = 'city' | 'coast' | 'hills';

export interface DemoBib {
  bib: string;
  /** Photos in the 'full' seed and in the 'small' seed (0 leaves the BIB out of the small seed). */
  photos: { full: number; small: number };
  participant: { name: string; email: string | null; finishTime: string | null };
}

export interface DemoEvent {
  /** Short code: prefix of Photo IDs and storage folders. */
  code: string;
  name: string;
  location: string;
  from: string;
  to: string;
  theme: (typeof THEMES)[number]['code'];
  scene: SceneKind;
  colour: string;
  issearchable: boolean;
  selfiesearch: boolean;
  preorderAllowed: boolean;
  showunlabeled: boolean;
  privacyCheck: boolean;
  featured: boolean;
  disablePrints: boolean;
  slam: string | null;
  ownedByOrganiser: boolean;
  showPremPack: boolean;
  showUltraPack: boolean;
  thresholdPhotoCount: number;
  preorder: { price: number; cutPrice: number } | null;
  bibs: DemoBib[];
  unlabeled: { full: number; small: number };
  /**
   * The race's own finish-line camera (its file name): the seed films the line from before the first
   * finisher to after the last and sends it through the video pipeline, which cuts every finisher's clip.
   */
  finishCamera?: string;
  sponsor: { couponName: string; sponsorName: string; description: string; type: 'percent' | 'flat'; amount: number; maxOrders: number } | null;
}

export const RUNNER_EMAIL = 'runner@finishline.test';

const FIRST = ['Aarav', 'Diya', 'Ishaan', 'Meera', 'Kabir', 'Ananya', 'Vihaan', 'Saanvi', 'Arjun', 'Kavya', 'Reyansh', 'Tara', 'Advait', 'Nisha'];
const LAST = ['Iyer', 'Kulkarni', 'Reddy', 'Bose', 'Menon', 'Joshi', 'Chatterjee', 'Patil', 'Rao', 'Gill', 'Naidu', 'Kapoor', 'Das', 'Pillai'];

/** A participant for a generated BIB: a name from the lists above and a demo email. */
function participant(bib: string, index: number, finishTime: string | null): DemoBib['participant'] {
  const name = `${FIRST[index % FIRST.length]} ${LAST[(index * 5 + 3) % LAST.length]}`;
  return { name, email: `${bib.toLowerCase()}@runners.finishline.test`, finishTime };
}

function bibsOf(prefix: string, start: number, counts: number[], smallCount = 1): DemoBib[] {
  return counts.map((full, i) => {
    const bib = `${prefix}${start + i}`;
    return { bib, photos: { full, small: i < smallCount ? 2 : 0 }, participant: participant(bib, start + i, `0${3 + (i % 2)}:${10 + i * 3}:0${i % 10}`) };
  });
}

const base = {
  selfiesearch: false,
  preorderAllowed: false,
  showunlabeled: false,
  privacyCheck: false,
  featured: false,
  disablePrints: false,
  slam: null,
  ownedByOrganiser: false,
  showPremPack: false,
  showUltraPack: false,
  thresholdPhotoCount: 10,
  preorder: null,
  unlabeled: { full: 0, small: 0 },
  sponsor: null,
} satisfies Partial<DemoEvent>;

export const METRO_SLAM = 'Finishline Metro Slam';
export const TRAIL_SLAM = 'Finishline Trail Slam';

export const EVENTS: DemoEvent[] = [
  {
    ...base,
    code: 'MCM26',
    name: 'Mumbai Coastal Marathon 2026',
    location: 'Mumbai, Maharashtra',
    from: '2026-01-18',
    to: '2026-01-18',
    theme: 'MAR',
    scene: 'coast',
    colour: '#0b5cad',
    issearchable: true,
    selfiesearch: true,
    preorderAllowed: true,
    showunlabeled: true,
    featured: true,
    slam: METRO_SLAM,
    ownedByOrganiser: true,
    showPremPack: true,
    showUltraPack: true,
    thresholdPhotoCount: 10,
    preorder: { price: 499, cutPrice: 999 },
    finishCamera: 'MCM26_FINISH_GANTRY.MP4',
    bibs: [
      {
        bib: 'TT20608',
        photos: { full: 6, small: 6 },
        participant: { name: 'Priya Nair', email: RUNNER_EMAIL, finishTime: '03:58:41' },
      },
      {
        bib: 'TT30000',
        photos: { full: 360, small: 12 },
        participant: { name: 'Vikram Sethi', email: 'tt30000@runners.finishline.test', finishTime: '04:21:09' },
      },
      ...bibsOf('TT', 20609, [4, 5, 3, 7, 2, 5, 4, 3], 2),
    ],
    unlabeled: { full: 160, small: 8 },
    sponsor: {
      couponName: 'COASTLINE20',
      sponsorName: 'Coastline Run Club',
      description: 'Coastline Run Club celebrates every finisher: 20% off each selected digital download of this race.',
      type: 'percent',
      amount: 20,
      maxOrders: 3,
    },
  },
  {
    ...base,
    code: 'BHH25',
    name: 'Bengaluru Heritage Half 2025',
    location: 'Bengaluru, Karnataka',
    from: '2025-11-16',
    to: '2025-11-16',
    theme: 'HALF',
    scene: 'city',
    colour: '#8a2be2',
    issearchable: true,
    privacyCheck: true,
    featured: true,
    slam: METRO_SLAM,
    ownedByOrganiser: true,
    bibs: [
      { bib: 'BH21042', photos: { full: 6, small: 3 }, participant: { name: 'Priya Nair', email: RUNNER_EMAIL, finishTime: '01:52:18' } },
      ...bibsOf('BH', 21043, [4, 3, 5], 0),
    ],
  },
  {
    ...base,
    code: 'PHT25',
    name: 'Pune Hill Trail 2025',
    location: 'Pune, Maharashtra',
    from: '2025-08-24',
    to: '2025-08-24',
    theme: 'TRAIL',
    scene: 'hills',
    colour: '#2e7d32',
    issearchable: true,
    selfiesearch: true,
    disablePrints: true,
    slam: TRAIL_SLAM,
    bibs: bibsOf('PT', 15001, [5, 4, 6, 3]),
  },
  {
    ...base,
    code: 'ARH26',
    name: 'Ahmedabad Riverfront Half 2026',
    location: 'Ahmedabad, Gujarat',
    from: '2026-03-08',
    to: '2026-03-08',
    theme: 'HALF',
    scene: 'city',
    colour: '#e65100',
    issearchable: true,
    showunlabeled: true,
    // The demo runner's half marathon of the grand slam (GRAND_SLAM below).
    bibs: [
      ...bibsOf('AR', 40101, [5, 4, 6, 5]),
      { bib: 'AR40608', photos: { full: 5, small: 2 }, participant: { name: 'Priya Nair', email: RUNNER_EMAIL, finishTime: '01:56:12' } },
    ],
    unlabeled: { full: 20, small: 0 },
  },
  {
    ...base,
    code: 'NFT26',
    name: 'Nilgiris Forest Trail 2026',
    location: 'Ooty, Tamil Nadu',
    from: '2026-09-12',
    to: '2026-09-13',
    theme: 'TRAIL',
    scene: 'hills',
    colour: '#1b5e20',
    issearchable: true,
    selfiesearch: true,
    featured: true,
    slam: TRAIL_SLAM,
    bibs: bibsOf('NF', 50201, [6, 4, 5, 6]),
  },
  {
    ...base,
    code: 'JPC26',
    name: 'Jaipur Pink City 10K 2026',
    location: 'Jaipur, Rajasthan',
    from: '2026-11-08',
    to: '2026-11-08',
    theme: 'TENK',
    scene: 'city',
    colour: '#c2185b',
    issearchable: true,
    selfiesearch: true,
    ownedByOrganiser: true,
    // The demo runner's 10K of the grand slam.
    bibs: [
      ...bibsOf('JP', 60301, [5, 6, 4, 5]),
      { bib: 'JP60608', photos: { full: 4, small: 2 }, participant: { name: 'Priya Nair', email: RUNNER_EMAIL, finishTime: '00:49:37' } },
    ],
  },
  {
    ...base,
    code: 'MCM25',
    name: 'Mumbai Coastal Marathon 2025',
    location: 'Mumbai, Maharashtra',
    from: '2025-01-19',
    to: '2025-01-19',
    theme: 'MAR',
    scene: 'coast',
    colour: '#0d47a1',
    issearchable: true,
    featured: true,
    bibs: bibsOf('TT', 10401, [5, 6, 4, 5]),
  },
  {
    ...base,
    code: 'DWH24',
    name: 'Delhi Winter Half 2024',
    location: 'New Delhi, Delhi',
    from: '2024-12-08',
    to: '2024-12-08',
    theme: 'HALF',
    scene: 'city',
    colour: '#b71c1c',
    issearchable: true,
    featured: true,
    slam: METRO_SLAM,
    bibs: bibsOf('DW', 70501, [6, 5, 4, 5]),
  },
  {
    ...base,
    code: 'KBM24',
    name: 'Kochi Backwaters Marathon 2024',
    location: 'Kochi, Kerala',
    from: '2024-08-18',
    to: '2024-08-18',
    theme: 'MAR',
    scene: 'coast',
    colour: '#00796b',
    issearchable: true,
    bibs: bibsOf('KB', 80601, [5, 4, 6, 5]),
  },
  {
    ...base,
    code: 'CMT24',
    name: 'Chennai Marina 10K 2024',
    location: 'Chennai, Tamil Nadu',
    from: '2024-02-11',
    to: '2024-02-11',
    theme: 'TENK',
    scene: 'coast',
    colour: '#f57c00',
    issearchable: true,
    selfiesearch: true,
    bibs: bibsOf('CM', 90701, [4, 5, 5, 6]),
  },
  {
    ...base,
    code: 'KHT23',
    name: 'Kolkata Heritage 10K 2023',
    location: 'Kolkata, West Bengal',
    from: '2023-12-17',
    to: '2023-12-17',
    theme: 'TENK',
    scene: 'city',
    colour: '#6d4c41',
    issearchable: true,
    bibs: bibsOf('KH', 30801, [5, 4, 6]),
  },
  {
    ...base,
    code: 'HLM23',
    name: 'Hyderabad Lakes Marathon 2023',
    location: 'Hyderabad, Telangana',
    from: '2023-08-27',
    to: '2023-08-27',
    theme: 'MAR',
    scene: 'coast',
    colour: '#283593',
    issearchable: true,
    featured: true,
    slam: METRO_SLAM,
    bibs: bibsOf('HL', 20901, [6, 5, 4, 5]),
  },
  {
    ...base,
    code: 'SRR23',
    name: 'Shimla Ridge Run 2023',
    location: 'Shimla, Himachal Pradesh',
    from: '2023-05-21',
    to: '2023-05-21',
    theme: 'TRAIL',
    scene: 'hills',
    colour: '#455a64',
    // Photos still being processed: listed, but not searchable.
    issearchable: false,
    bibs: [],
  },
  {
    ...base,
    code: 'GBR26',
    name: 'Goa Beach Run 2026',
    location: 'Panaji, Goa',
    from: '2026-12-13',
    to: '2026-12-13',
    theme: 'TENK',
    scene: 'coast',
    colour: '#00838f',
    issearchable: false,
    preorderAllowed: true,
    preorder: { price: 299, cutPrice: 599 },
    bibs: [],
  },
  {
    ...base,
    code: 'MCM27',
    name: 'Mumbai Coastal Marathon 2027',
    location: 'Mumbai, Maharashtra',
    from: '2027-01-17',
    to: '2027-01-17',
    theme: 'MAR',
    scene: 'coast',
    colour: '#0b5cad',
    issearchable: false,
    preorderAllowed: true,
    ownedByOrganiser: true,
    preorder: { price: 499, cutPrice: 999 },
    bibs: [],
  },
  {
    ...base,
    code: 'BHH27',
    name: 'Bengaluru Heritage Half 2027',
    location: 'Bengaluru, Karnataka',
    from: '2027-02-21',
    to: '2027-02-21',
    theme: 'HALF',
    scene: 'city',
    colour: '#8a2be2',
    issearchable: false,
    preorderAllowed: true,
    preorder: { price: 449, cutPrice: 899 },
    bibs: [],
  },
  {
    ...base,
    code: 'SMT27',
    name: 'Sahyadri Monsoon Trail 2027',
    location: 'Lonavala, Maharashtra',
    from: '2027-07-18',
    to: '2027-07-18',
    theme: 'TRAIL',
    scene: 'hills',
    colour: '#33691e',
    issearchable: false,
    bibs: [],
  },
];

/**
 * Achievements (certificates): events a runner finishes to earn one, in their required order, and
 * the colour of the certificate. The demo runner (Priya Nair) finished all three races of the grand
 * slam (TT20608, AR40608, JP60608). The two older series (events' slam) are achievements too.
 */
export interface DemoAchievement {
  title: string;
  description: string;
  /** Event codes in the required sequence. */
  events: string[];
  accent: string;
}

export const GRAND_SLAM = 'Finishline Grand Slam 2026';

const seriesOf = (slam: string) =>
  EVENTS.filter((e) => e.slam === slam)
    .sort((a, b) => a.from.localeCompare(b.from))
    .map((e) => e.code);

export const ACHIEVEMENTS: DemoAchievement[] = [
  {
    title: GRAND_SLAM,
    description: 'A marathon, a half marathon and a 10K in one season: Mumbai, Ahmedabad and Jaipur.',
    events: ['MCM26', 'ARH26', 'JPC26'],
    accent: '#0b5cad',
  },
  { title: METRO_SLAM, description: 'Four metro races: Hyderabad, Delhi, Bengaluru and Mumbai.', events: seriesOf(METRO_SLAM), accent: '#6a1b9a' },
  { title: TRAIL_SLAM, description: 'The Pune hills and the Nilgiris forest.', events: seriesOf(TRAIL_SLAM), accent: '#2e7d32' },
];

/**
 * Demo accounts. The organiser and operator roles are granted after the account exists, through the
 * same function `pnpm admin grant-organiser` and the operator's API use (accounts/roles.ts).
 */
export const DEMO_USERS = [
  { role: 'runner', firstName: 'Priya', lastName: 'Nair', email: RUNNER_EMAIL, primaryPhone: '9820012345', isPartner: false, grant: null },
  {
    role: 'organiser',
    firstName: 'Rohan',
    lastName: 'Desai',
    email: 'organiser@finishline.test',
    primaryPhone: '9820023456',
    isPartner: false,
    grant: 'organiser',
  },
  { role: 'partner', firstName: 'Kabir', lastName: 'Shah', email: 'partner@finishline.test', primaryPhone: '9820034567', isPartner: true, grant: null },
  {
    role: 'operator',
    firstName: 'Anita',
    lastName: 'Kapoor',
    email: 'operator@finishline.test',
    primaryPhone: '9820045678',
    isPartner: false,
    grant: 'operator',
  },
  {
    role: 'fulfilment',
    firstName: 'Meera',
    lastName: 'Iyer',
    email: 'prints@finishline.test',
    primaryPhone: '9820056789',
    isPartner: false,
    grant: 'fulfilment',
  },
] as const;

/** Print products with the spec's prices in rupees before GST; the price with GST is the shared rule's (739 -> 872). */
export const PRINT_PRODUCTS = [
  // Print sizes in inches (the trim size; a mug's wrap is 8.5 x 3.5).
  { slug: 'magnet', name: 'Magnet 4x6 inches', price: 739, widthIn: 4, heightIn: 6 },
  { slug: 'frame', name: 'Frame 10x10 inches', price: 319, widthIn: 10, heightIn: 10 },
  { slug: 'mug', name: 'Coffee mug', price: 259, widthIn: 8.5, heightIn: 3.5 },
  { slug: 'poster', name: 'Wall poster 13x10 inches', price: 350, widthIn: 13, heightIn: 10 },
] as const;

export const HIGHLIGHT_COUNT = 6;
export const PURCHASE_NOTIFICATION = 'Meera from Pune just bought 5 photos of Mumbai Coastal Marathon 2026';
