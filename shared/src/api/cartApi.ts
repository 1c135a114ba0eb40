import { API_ROUTES } from './routes';
import { post } from '@finishline/shared/runtime';
import { downloadFile } from './downloadFile';
import type { Bill, CartRequest } from '../types/cart';
import type { FeedbackRequest, FeedbackResult, GenerateOtpResult, OtpRequest, VerifyOtpRequest, VerifyOtpResult } from '../types/otp';

/** Cart pricing, privacy OTP and photo feedback calls (storefront spec section 7). */
export const cartApi = {
  cartDetails: (body: CartRequest) => post<Bill>(API_ROUTES.cartDetails, body),
  unlabeledCartDetails: (body: CartRequest) => post<Bill>(API_ROUTES.unlabeledCartDetails, body),
  /** A small JPEG of the cart's collage as it will be printed (watermarked photos), before paying. */
  collagePreview: (body: CartRequest): Promise<Blob> => downloadFile({ method: 'POST', url: API_ROUTES.collagePreview, data: body }),
  generateOtp: (body: OtpRequest) => post<GenerateOtpResult>(API_ROUTES.generateOtp, body),
  verifyOtp: (body: VerifyOtpRequest) => post<VerifyOtpResult>(API_ROUTES.verifyOtp, body),
  recordFeedback: (body: FeedbackRequest) => post<FeedbackResult>(API_ROUTES.recordFeedback, body),
};
