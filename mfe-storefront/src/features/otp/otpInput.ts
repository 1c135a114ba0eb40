/** Digits only, at most 6 (spec: OTP input). */
export function otpInput(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6);
}
