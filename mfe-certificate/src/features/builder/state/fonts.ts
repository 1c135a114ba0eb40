import { CERTIFICATE_FONTS, CERTIFICATE_LIMITS, type CertificateFontFile } from '@finishline/shared';
import playfairBold from '@expo-google-fonts/playfair-display/700Bold/PlayfairDisplay_700Bold.ttf';
import montserratSemiBold from '@expo-google-fonts/montserrat/600SemiBold/Montserrat_600SemiBold.ttf';
import montserratRegular from '@expo-google-fonts/montserrat/400Regular/Montserrat_400Regular.ttf';

/**
 * The certificate's fonts ship with this remote: the same TTF files the server's renderer reads
 * (CERTIFICATE_FONTS[file].source), bundled as files of their own. No font service is called.
 */
const FONT_URLS: Record<CertificateFontFile, string> = {
  'PlayfairDisplay-Bold.ttf': playfairBold,
  'Montserrat-SemiBold.ttf': montserratSemiBold,
  'Montserrat-Regular.ttf': montserratRegular,
};

let loading: Promise<void> | null = null;

/**
 * Registers and loads the template's fonts; resolves when they are ready or after the spec's 3 s,
 * whichever comes first (the certificate is then drawn with what the browser has).
 */
export function loadCertificateFonts(files: CertificateFontFile[]): Promise<void> {
  loading ??= Promise.all(
    (Object.keys(FONT_URLS) as CertificateFontFile[]).map(async (file) => {
      const { family, weight } = CERTIFICATE_FONTS[file];
      const face = new FontFace(family, `url(${FONT_URLS[file]})`, { weight: String(weight) });
      document.fonts.add(await face.load());
    }),
  ).then(() => undefined);
  const wanted = Promise.all(files.map((file) => document.fonts.load(`${CERTIFICATE_FONTS[file].weight} 60px "${CERTIFICATE_FONTS[file].family}"`)));
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, CERTIFICATE_LIMITS.fontLoadTimeoutMs));
  return Promise.race([loading.then(() => wanted).then(() => undefined), timeout]).catch(() => undefined);
}
