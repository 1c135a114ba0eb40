import type { CertificatePhoto, CertificateRow, PaginationInfo, TemplateDetailsResult } from '@finishline/shared';
import { emptyRow } from './rows';

export type Step = 'search' | 'select' | 'process' | 'preview';
export const STEPS: Step[] = ['search', 'select', 'process', 'preview'];

/** One event of the search result (spec: certificate event row). */
export interface CertificateEventRow {
  eventId: number;
  eventName: string;
  bibNumber: string;
  selectedImage: CertificatePhoto | null;
  eventImages: CertificatePhoto[];
  pagination: PaginationInfo;
  achievement_id: number;
  /** The session may use the BIB's own photos (bought, or privacy-verified); otherwise previews and an offer to buy. */
  photosUsable: boolean;
}

/** Crop data (spec): the crop, the zoom and rotation, and the image's natural and displayed sizes. */
export interface CropData {
  crop: { x: number; y: number; width: number; height: number; unit: 'px' | '%' };
  scale: number;
  rotate: number;
  naturalWidth: number;
  naturalHeight: number;
  displayWidth: number;
  displayHeight: number;
}

/** Processed image (spec): the chosen photo, its cropped version and how it was cropped. */
export interface ProcessedImage {
  originalImage: string;
  processedImageUrl: string;
  cropData: CropData;
  eventId: number;
  bibNumber: string;
}

export interface BuilderState {
  step: Step;
  rows: CertificateRow[];
  events: CertificateEventRow[];
  processed: Record<number, ProcessedImage>;
  template: TemplateDetailsResult | null;
}

export type BuilderAction =
  | { type: 'rows'; rows: CertificateRow[] }
  | { type: 'searched'; events: CertificateEventRow[] }
  | { type: 'page'; eventId: number; images: CertificatePhoto[]; pagination: PaginationInfo }
  | { type: 'toggleImage'; eventId: number; photo: CertificatePhoto }
  | { type: 'template'; template: TemplateDetailsResult }
  | { type: 'cropped'; image: ProcessedImage }
  | { type: 'generate' }
  | { type: 'back' }
  | { type: 'editSearch' }
  | { type: 'close' };

export const initialBuilderState = (rows: CertificateRow[] = [emptyRow()]): BuilderState => ({
  step: 'search',
  rows,
  events: [],
  processed: {},
  template: null,
});

export const selectedCount = (events: CertificateEventRow[]): number => events.filter((e) => e.selectedImage).length;
export const allSelected = (events: CertificateEventRow[]): boolean => events.length > 0 && selectedCount(events) === events.length;
export const croppedCount = (state: Pick<BuilderState, 'events' | 'processed'>): number => state.events.filter((e) => state.processed[e.eventId]).length;
/** Generate Certificate is allowed only when every event's image has been cropped. */
export const allCropped = (state: Pick<BuilderState, 'events' | 'processed'>): boolean =>
  state.events.length > 0 && croppedCount(state) === state.events.length;

const withoutProcessed = (processed: Record<number, ProcessedImage>, eventId: number) =>
  Object.fromEntries(Object.entries(processed).filter(([id]) => Number(id) !== eventId));

/**
 * The builder's steps in order: search, image selection, processing, preview (spec: certificate
 * flow). Back goes from preview to processing and from processing to selection with the earlier
 * choices kept; Edit Search goes back to the search and forgets the chosen images; closing starts
 * again from the search.
 */
export function builderReducer(state: BuilderState, action: BuilderAction): BuilderState {
  switch (action.type) {
    case 'rows':
      return { ...state, rows: action.rows };
    case 'searched':
      return { ...state, step: 'select', events: action.events, processed: {}, template: null };
    case 'page':
      return {
        ...state,
        events: state.events.map((e) => (e.eventId === action.eventId ? { ...e, eventImages: action.images, pagination: action.pagination } : e)),
      };
    case 'toggleImage': {
      // Clicking the selected photo again unselects it; another choice forgets the old crop.
      const events = state.events.map((e) =>
        e.eventId === action.eventId ? { ...e, selectedImage: e.selectedImage?.id === action.photo.id ? null : action.photo } : e,
      );
      return { ...state, events, processed: withoutProcessed(state.processed, action.eventId) };
    }
    case 'template': {
      if (!allSelected(state.events)) return state;
      // The chosen photos now carry the links the certificate is drawn from.
      const events = state.events.map((e) => {
        const photo = action.template.photos.find((p) => p.event_id === e.eventId);
        return photo && e.selectedImage ? { ...e, selectedImage: { ...e.selectedImage, high_res_url: photo.high_res_url } } : e;
      });
      return { ...state, step: 'process', events, template: action.template };
    }
    case 'cropped':
      return { ...state, processed: { ...state.processed, [action.image.eventId]: action.image } };
    case 'generate':
      return state.step === 'process' && allCropped(state) ? { ...state, step: 'preview' } : state;
    case 'back':
      if (state.step === 'preview') return { ...state, step: 'process' };
      if (state.step === 'process') return { ...state, step: 'select' };
      return state;
    case 'editSearch':
      return { ...state, step: 'search', events: state.events.map((e) => ({ ...e, selectedImage: null })), processed: {}, template: null };
    case 'close':
      return initialBuilderState(state.rows);
  }
}
