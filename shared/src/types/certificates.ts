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
  /** The photo the certificate is made from: only in template details, for the selected photos. */
  high_res_url?: string;
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
