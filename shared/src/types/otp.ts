/** Privacy OTP and photo feedback calls (storefront spec section 7). */
export interface OtpRequest {
  eventID: number;
  bibNumber: string;
  eventName?: string;
  userID?: number | null;
  sessionToken?: string;
  /** A solved captcha: needed once the BIB had a few OTPs mailed recently (the server answers CaptchaNeeded). */
  gCaptchToken?: string;
}

export interface VerifyOtpRequest extends OtpRequest {
  otp: string;
}

export interface GenerateOtpResult {
  /** Masked address the code was mailed to. */
  email: string;
  /** Seconds before Resend is offered again. */
  resendAfterSeconds: number;
}

export interface VerifyOtpResult {
  isVerified: true;
}

export interface FeedbackRequest {
  /** 1 hide, 2 not me */
  usrfeedback: 1 | 2;
  bibNumber: string;
  eventID?: number;
  /** Comma-joined photo ids. */
  photoids: string;
  /** Takes back the caller's own hide or report of these photos. */
  undo?: boolean;
}

export interface FeedbackResult {
  recorded: number;
}
