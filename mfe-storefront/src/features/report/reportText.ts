/** The report button's label (also in the early copy of /products: build/firstRoutePreload.mjs). */
export const REPORT_BUTTON_TEXT = 'Report picture(s)';
