import { API_ROUTES } from './routes';
import { get, post } from '@finishline/shared/runtime';
import { preloadedOr } from './preloaded';
import type { EventSummary, EventNamesResult, HomePageResult, EventThemes } from '../types/entities';
import type { BibSearchRequest, BibSearchResult, EventDetailsRequest, EventDetailsResponse } from '../types/search';
import type { MasterConfig } from '../types/config';

/** Typed calls of the storefront's discovery and search (storefront spec section 7). */
export const eventsApi = {
  eventNames: () => get<EventNamesResult>(API_ROUTES.eventNames),
  // The shell's page may have started this request already (first visit to /).
  homePage: () => preloadedOr('home', () => get<HomePageResult>(API_ROUTES.homePage)),
  eventThemes: () => get<EventThemes>(API_ROUTES.eventThemes),
  eventDetails: (body: EventDetailsRequest) => post<EventDetailsResponse>(API_ROUTES.eventDetails, body),
  multiEventList: (searchtxt: string) => post<EventSummary[]>(API_ROUTES.multiEventList, { searchtxt }),
  searchByBib: (body: BibSearchRequest) => post<BibSearchResult>(API_ROUTES.searchByBib, body),
  masterConfig: () => get<MasterConfig>(API_ROUTES.masterConfig),
};
