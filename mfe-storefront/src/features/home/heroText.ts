/** The hero's headline and subtitle. The shell's page paints a copy of them before any JavaScript (build/firstRoutePreload.mjs; a Jest test keeps the copy equal). */
export const HERO_TITLE = 'Find your race photos';
export const HERO_SUBTITLE = 'Choose your event, then search by your BIB number or a selfie.';
