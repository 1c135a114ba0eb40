// The events feature's public entry: an event's row and prices, and the country of a client address.
export { EVENT_COLUMNS, findEvent, priceInfoOf, pricingCatalogOf, PUBLISHED_SQL, publishedEventJsonSql, type EventRow } from './queries';
export { countryOfAddress } from './masterConfig';
export { ensureHomeImageRenditions } from './homeImageRenditions';
