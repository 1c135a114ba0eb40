// The events feature's public entry: an event's row and prices, and the country of a client address.
export { findEvent, priceInfoOf, pricingCatalogOf, type EventRow } from './queries';
export { countryOfAddress } from './masterConfig';
