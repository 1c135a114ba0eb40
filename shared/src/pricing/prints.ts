import { DEFAULT_ISD_CODE } from '../schemas/accounts';
import type { PrintProduct } from '../types/entities';
import { GST_PERCENT, withGst } from './pricing';

/**
 * Prints are delivered only inside India, so they are offered and accepted only for India's calling
 * code, which is also the default ISD code (spec).
 */
export const PRINT_COUNTRY_CODE = DEFAULT_ISD_CODE;

export function printsDeliverableTo(isdCode: string | null | undefined): boolean {
  return isdCode === PRINT_COUNTRY_CODE;
}

/** A print's price with GST, from the rule the bill charges (never a second stored price). */
export function printPriceWithGst(product: Pick<PrintProduct, 'price'>, gstPercent = GST_PERCENT): number {
  return withGst(product.price, gstPercent);
}
