import type { PreauthParams } from '@finishline/shared/pure';
import { AppError } from '../../http/envelope';
import { hmac, safeEqual } from '../../security/tokens';

/** Downloads stay available this many days after payment (spec section 9). */
export const DOWNLOAD_DAYS = 30;
export const DOWNLOADS_EXPIRED_MESSAGE = `Downloads for this order expired ${DOWNLOAD_DAYS} days after purchase. Please contact support for help.`;
export const LINK_INVALID_MESSAGE = 'This download link is not valid. Please use the link from your confirmation mail.';

/** The end of the download window of an order paid at paidAt. */
export function downloadUntil(paidAt: Date): Date {
  return new Date(paidAt.getTime() + DOWNLOAD_DAYS * 86400_000);
}

const signedText = (orderref: string, email: string, lt: string) => `preauth|${orderref}|${email.toLowerCase()}|${lt}`;

/** The values of a pre-authorised link (orderref, e, lt, h): lt is the expiry in Unix seconds. */
export function signPreauth(secret: string, orderRef: string, email: string, expiresAt: Date): PreauthParams {
  const lt = String(Math.floor(expiresAt.getTime() / 1000));
  return { orderref: orderRef, e: email.toLowerCase(), lt, h: hmac(secret, signedText(orderRef, email, lt)) };
}

/** Checks the signature and the expiry; throws 403 (tampered) or 410 (expired) with a clear message. */
export function verifyPreauth(secret: string, params: Partial<PreauthParams>, now = new Date()): { orderRef: string; email: string } {
  const { orderref, e, lt, h } = params;
  if (!orderref || !e || !lt || !h || !/^\d{1,12}$/.test(lt)) throw new AppError(403, LINK_INVALID_MESSAGE);
  if (!safeEqual(hmac(secret, signedText(orderref, e, lt)), h)) throw new AppError(403, LINK_INVALID_MESSAGE);
  if (Number(lt) * 1000 < now.getTime()) throw new AppError(410, DOWNLOADS_EXPIRED_MESSAGE);
  return { orderRef: orderref, email: e.toLowerCase() };
}

export function preauthUrl(shellUrl: string, params: PreauthParams): string {
  return `${shellUrl}/preauthdownload?${new URLSearchParams({ ...params }).toString()}`;
}
