import type { PaginationInfo } from './discovery';

/**
 * The achievement certificate (accounts spec: certificate builder, entities, calls). An achievement
 * spans several events (a grand slam); its template says where the runner's photos, name and
 * official finish times go. The browser (konva) and the server (ultra premium zips) draw the same
 * template_config, through the same layout (certificates/layout.ts).
 */

/** The bundled fonts a template may name; each side loads the same TTF file (see certificates/fonts.ts). */
export type CertificateFontFile = 'PlayfairDisplay-Bold.ttf' | 'Montserrat-SemiBold.ttf' | 'Montserrat-Regular.ttf';

/** What a text item shows: the participant, a per-event value, or fixed words. */
export type CertificateTextField = 'participant_name' | 'finish_time' | 'event_name' | 'bib_number' | 'static';

export interface CertificateTextItem {
  field: CertificateTextField;
  /** For finish_time, event_name and bib_number: the event whose value is shown. */
  event_id?: number;
  /** For static: the words. */
  text?: string;
  font_file: CertificateFontFile;
  /** Pixels at the output resolution; defaults: 60 for the name, 70 for a time, 48 otherwise (spec section 9). */
  font_size?: number;
  color: string;
  /** The anchor: x is where the text starts, centres or ends (align); y is its baseline. */
  x: number;
  y: number;
  align?: 'left' | 'center' | 'right';
  /** Wider text is drawn smaller, so a long name never leaves the certificate. */
  max_width?: number;
}

/** Where one event's photo goes (a square crop of it, drawn into this box). */
export interface CertificateImageSlot {
  event_id: number;
  slot: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CertificateTemplateConfig {
  output_resolution: { width: number; height: number };
  output_filename: string;
  texts: CertificateTextItem[];
  images: CertificateImageSlot[];
}

export interface CertificateEventResult {
  event_id: number;
  event_name: string;
  bib_number: string;
  /** Official finish time, "HH:MM:SS". */
  finish_time: string | null;
}

export interface AchievementDetails {
  achievement_id: number;
  title: string;
  description: string;
  /** As the results list it; shown with each word capitalised. */
  participant_name: string;
  events: CertificateEventResult[];
}

export interface CertificateTemplate {
  /** The background at the output resolution. */
  template_image: string;
  template_config: CertificateTemplateConfig;
  config: { required_sequence: number[] };
  achievement_details: AchievementDetails;
}

/** A photo of the builder (spec: id, s3, high_res_url, photo_id, event_id, participant_details). */
export interface CertificatePhoto {
  id: number;
  /** Watermarked preview. */
  s3: string;
  /** Thumbnail for the grid. */
  image: string;
  /**
   * The photo the certificate is made from: only in template details, for the selected photos. The
   * print-size rendition only where the session has the right to the BIB's photos (usable), else the
   * watermarked preview.
   */
  high_res_url?: string;
  /** Template details: whether high_res_url is the runner's own photo (bought or privacy-verified) rather than a preview. */
  usable?: boolean;
  /** Shown as Photo ID. */
  photo_id: string;
  event_id: number;
  participant_details: { name: string; finish_time: string | null };
}

/** One event + BIB pair of the achievements search, as the multipart form sends it (empty slots padded). */
export interface EventBibPair {
  event_id: number | '';
  bib_number: string;
}

export interface AchievementsSearchRequest {
  event_bib_pairs: EventBibPair[];
  _token?: string;
  page?: number;
  /** The achievement the BIB search named (achievementsEligibility), when the pairs could make several. */
  achievement_id?: number | null;
}

export interface AchievementsSearchPair {
  event_id: number;
  event_name: string;
  bib_number: string;
  photos: CertificatePhoto[];
  pagination: PaginationInfo;
  achievement_id: number;
  /**
   * Whether this session may use the BIB's own photos on the certificate: it bought them (an order of
   * this BIB) or passed the event's privacy check for it. Otherwise the builder shows watermarked
   * previews and offers to buy; the server refuses the upload.
   */
  photos_usable: boolean;
}

export interface AchievementsSearchResult {
  pairs: AchievementsSearchPair[];
  achievement_details: AchievementDetails;
}

export interface TemplateDetailsRequest {
  achievement_id: number;
  /** selected_photos[{eventId}] = photo id. */
  selected_photos: Record<string, number>;
}

export interface TemplateDetailsResult {
  photos: CertificatePhoto[];
  template: CertificateTemplate;
  achievement_details: AchievementDetails;
}

export interface CertificateUploadResult {
  /** A signed link to the stored JPEG (the browser fetches it and saves it). */
  certificate_url: string;
}

export interface RecordCertificateDownloadRequest {
  achievement_id: number;
}

export interface RecordCertificateDownloadResult {
  downloads: number;
}

/**
 * A race's finisher certificate as its organiser sets it (Event Dashboard, Certificate tab). A race
 * has one once a participant has an official finish time; before that `has_results` is false.
 */
export interface OrganiserCertificate {
  event_id: number;
  event_name: string;
  /** The race's first day (YYYY-MM-DD), for the template's Date field. */
  event_date: string;
  has_results: boolean;
  /** Participants with an official finish time. */
  finishers: number;
  active: boolean;
  title: string;
  /** The race's colour: the standard layout's border, heading and times. */
  accent_color: string;
  /** The organiser's uploaded background (storage key and its URL), or null: the standard one in accent_color. */
  background_key: string | null;
  background_url: string | null;
  /** The template in effect (the standard layout until the organiser saves one). */
  template_config: CertificateTemplateConfig;
}

export interface CertificateSettingsRequest {
  eventId: number;
}

/** The certificate as the organiser has it on screen: previewed as is, or saved with `active`. */
export interface CertificateDraftRequest {
  eventId: number;
  title: string;
  accent_color: string;
  background_key: string | null;
  template_config: CertificateTemplateConfig;
}

export interface SaveCertificateSettingsRequest extends CertificateDraftRequest {
  active: boolean;
}

/** A background image (JPEG or PNG) as base64, optionally as a data: URL. */
export interface CertificateBackgroundRequest {
  eventId: number;
  image: string;
}

export interface CertificateBackgroundResult {
  background_key: string;
  background_url: string;
}

/** The server's drawing of a draft with one finisher's data, downscaled, its photo slot from a watermarked preview. */
export interface CertificatePreviewResult {
  /** data:image/jpeg;base64,... */
  image: string;
  width: number;
  height: number;
  participant_name: string;
  bib_number: string;
  finish_time: string;
  /** Whether the finisher had a photo (its watermarked preview fills the slot). */
  with_photo: boolean;
}

/** A series (grand slam) an organiser made of their own races: one certificate for finishing them all. */
export interface OrganiserSeries {
  id: number;
  title: string;
  active: boolean;
  /** The races in the series' order (the certificate's photo slots follow it). */
  events: Array<{ event_id: number; event_name: string }>;
  /** The series' colour: the standard layout's border, heading and times. */
  accent_color: string;
  /** The organiser's uploaded background (storage key and its URL), or null: the standard one in accent_color. */
  background_key: string | null;
  background_url: string | null;
  /** The template in effect: the fields where the organiser placed them, else the standard layout for the races. */
  template_config: CertificateTemplateConfig;
}

/** The organiser's series and the races they may put in one (their own; has_results: official times imported). */
export interface OrganiserSeriesList {
  series: OrganiserSeries[];
  races: Array<{ event_id: number; event_name: string; event_date: string; has_results: boolean }>;
}

export interface SaveSeriesRequest {
  /** The series to change; none: a new one. */
  id?: number | null;
  title: string;
  /** Two to four of the organiser's races, in order. */
  eventIds: number[];
  active: boolean;
  /** The standard layout's colour (#rrggbb); none: the standard colour. */
  accent_color?: string;
  /** A background uploaded for the organiser's series (SeriesBackgroundRequest), or null: the standard one. */
  background_key?: string | null;
  /** The fields as placed (one photo slot per race, per-race fields of the series' races only); none: the standard layout. */
  template_config?: CertificateTemplateConfig | null;
}

/** A series background image (JPEG or PNG) as base64, optionally as a data: URL; stored for the organiser, used once a series is saved with it. */
export interface SeriesBackgroundRequest {
  image: string;
}
