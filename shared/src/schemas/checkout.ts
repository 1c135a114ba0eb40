import { array, number, object, string, type InferType } from 'yup';
import { cartLineSchema } from './cart';
import { SEARCH_KINDS } from '../types/cart';

/**
 * Checkout, pre-order and pre-order link forms (spec section 5). The forms and the server validate
 * with these same schemas.
 */

export const GENDERS = ['Male', 'Female', 'Other'] as const;

const requiredText = (min: number, label: string) => string().trim().required('Required!').min(min, `${label} must be at least ${min} characters.`);

/** A phone number of digits only, at least 10 (the spec's "Must contain only Numbers!" / "Must contain 10 Digits!"). */
const tenDigitPhone = () => string().trim().required('Required!').matches(/^\d+$/, 'Must contain only Numbers!').min(10, 'Must contain 10 Digits!');
const mobileNumber = () => tenDigitPhone().max(15, 'Mobile number has at most 15 digits.');
const buyerName = () => string().trim().required('Required!').max(100, 'Name has at most 100 characters.');
const buyerEmail = () => string().trim().required('Required!').email('Invalid email');

/**
 * An Indian PIN code: 6 digits, the first not 0 (prints are delivered only inside India). The
 * forms and the server check it with this one rule.
 */
export const PIN_CODE_PATTERN = /^[1-9]\d{5}$/;
export const PIN_CODE_MESSAGE = 'A PIN code is 6 digits and does not start with 0.';
export const pinCodeSchema = () => string().trim().required('Required!').matches(PIN_CODE_PATTERN, PIN_CODE_MESSAGE);

/** Whether an order of these cart lines ships something (a print or a collage): only then are address and PIN code asked. */
export function cartShipsGoods(lines: ReadonlyArray<{ type: string }>): boolean {
  return lines.some((line) => line.type === 'print' || line.type === 'collage');
}

/**
 * Validation context of the checkout forms: `shipsGoods` false (an order of downloads only) leaves
 * out shipping address and PIN code (stripped from the value, so never stored); anything else asks
 * for them.
 */
export interface CheckoutContext {
  shipsGoods: boolean;
}
const shippingAddressField = () =>
  string().when('$shipsGoods', {
    is: false,
    then: (s) => s.strip(),
    otherwise: (s) =>
      s.trim().required('Required!').min(3, 'Shipping address must be at least 3 characters.').max(500, 'Shipping address has at most 500 characters.'),
  });
const pinCodeField = () =>
  string().when('$shipsGoods', {
    is: false,
    then: (s) => s.strip(),
    otherwise: (s) => s.trim().required('Required!').matches(PIN_CODE_PATTERN, PIN_CODE_MESSAGE),
  });

/**
 * Signed-in checkout form (/UserOrderdetails, /test): name, mobile, email and gender; shipping
 * address and PIN code when the order ships a print or a collage (context `CheckoutContext`).
 */
export const checkoutFormSchema = object({
  name: requiredText(3, 'Name'),
  phone_number: string()
    .trim()
    .required('Required!')
    .matches(/^\d+$/, 'Must contain only Numbers!')
    .matches(/^[1-9]/, 'Mobile number must not start with 0.')
    .min(10, 'Must contain 10 Digits!')
    .max(15, 'Mobile number has at most 15 digits.'),
  email: buyerEmail(),
  gender: string()
    .required('Required!')
    .oneOf<string>([...GENDERS], 'Please choose Male, Female or Other.'),
  shipping_address: shippingAddressField(),
  pincode: pinCodeField(),
});
export type CheckoutFormValues = InferType<typeof checkoutFormSchema>;

/** Guest checkout form (Guest Checkout tab): with a print or a collage also shipping address and PIN code. */
export const guestCheckoutFormSchema = object({
  name: buyerName(),
  email: buyerEmail(),
  phone_number: mobileNumber(),
  shipping_address: shippingAddressField(),
  pincode: pinCodeField(),
});
export type GuestCheckoutFormValues = InferType<typeof guestCheckoutFormSchema>;

/** Guest pre-order form: name, email and phone plus the captcha. */
export const preorderFormSchema = object({
  name: buyerName(),
  email: buyerEmail(),
  phone_number: mobileNumber(),
});
export type PreorderFormValues = InferType<typeof preorderFormSchema>;

/** 'Pre-Booked Photos' mapping form (storefront spec section 5). */
export const preorderLinkFormSchema = object({
  race: string().trim().required('Required!'),
  orderID: string().trim().required('Required!').max(40, 'Order ID has at most 40 characters.'),
  bibNo: string().trim().required('Required!').max(32, 'A BIB number has at most 32 characters.'),
  email: buyerEmail(),
  phone_number: tenDigitPhone(),
});
export type PreorderLinkFormValues = InferType<typeof preorderLinkFormSchema>;

/** Server side of generate pre-order link (the modal's fields under the call's names). */
export const preorderLinkRequestSchema = object({
  orderId: string().trim().required('Please enter the Order ID.').max(40, 'Order ID has at most 40 characters.'),
  orderEmail: string().trim().required('Please enter the email of the order.').email('Invalid email'),
  orderBibNumber: string().trim().required('Please enter your BIB number.').max(32, 'A BIB number has at most 32 characters.'),
  mobilenum: tenDigitPhone(),
});

/** Create-order body; the buyer fields are checked again with the form schema for the caller's kind. */
export const createOrderRequestSchema = object({
  eventID: number().typeError('Please choose an event.').integer().positive().required('Please choose an event.'),
  bibNumber: string().trim().required('Please enter your BIB number.').max(32, 'A BIB number has at most 32 characters.'),
  isdCode: string().trim().max(6).optional(),
  print_instruction: string().trim().max(1000, 'Print instructions have at most 1000 characters.').optional(),
  sponsorofferID: number().integer().positive().nullable().optional(),
  newUserFlg: number().integer().optional(),
  captcha: string().max(20000).optional(),
  cartInfo: object({
    searchKind: string().required().oneOf(SEARCH_KINDS, 'Unknown search kind.'),
    packageKind: string().nullable().oneOf(['a', 'b', null], 'Unknown package.').default(null),
    lines: array(cartLineSchema).required().min(1, 'Your cart is empty.').max(500, 'Your cart has too many items.'),
    discountedPhotoIds: array(number().integer().positive().required()).default([]),
  }).required('Your cart is empty.'),
});

export const preorderRequestSchema = preorderFormSchema.shape({
  eventID: number().typeError('Please choose an event.').integer().positive().required('Please choose an event.'),
  isdCode: string().trim().max(6).optional(),
  instruction: string().trim().max(1000).optional(),
  captcha: string().required('Please solve the captcha.').max(20000),
});
