import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { App, Button, Drawer, Input, Space } from 'antd';
import { cartApi, captchaNeededOf, isApiError, STORAGE_KEYS, type BibSearchResult, localStore } from '@finishline/shared';
import { CaptchaField, useRequestedCaptcha } from '@finishline/shared/react';
import { otpInput } from '../otpInput';

export const OTP_RESEND_SECONDS = 30;
export const OTP_VERIFIED_TEXT = 'OTP Verified Successfully';

/**
 * Privacy OTP drawer: the server mails a code to the participant's email (shown masked); Resend is
 * offered once a 30 second countdown reaches zero; a verified BIB shows its photos. The server
 * withholds the photos until then, so nothing here is trusted. After a few codes for the BIB the
 * server asks for a captcha before mailing another: the drawer then shows it above Resend.
 */
export function OtpDrawer({ products, onVerified }: { products: BibSearchResult; onVerified: () => Promise<void> }) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [otp, setOtp] = useState('');
  const [countdown, setCountdown] = useState(0);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const sentFor = useRef<string | null>(null);
  const { strength: captchaStrength, resetKey: captchaResetKey, afterTry: afterCaptchaTry } = useRequestedCaptcha(null);
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const email = products.participantExists[0]?.email1 ?? '';

  const body = useCallback(
    () => ({
      eventID: products.eventId,
      eventName: products.eventName,
      bibNumber: products.bibNumber,
      userID: Number(localStore.get(STORAGE_KEYS.userId)) || null,
      sessionToken: localStore.get(STORAGE_KEYS.sessionToken) ?? undefined,
    }),
    [products.eventId, products.eventName, products.bibNumber],
  );

  const send = useCallback(async () => {
    setCountdown(OTP_RESEND_SECONDS);
    let failure: unknown;
    try {
      const answer = await cartApi.generateOtp({ ...body(), ...(captchaToken ? { gCaptchToken: captchaToken } : {}) });
      setSentTo(answer.result.email);
      message.success(answer.message);
    } catch (error) {
      failure = error;
      message.warning(isApiError(error) ? error.message : 'Server Error');
      // Asked for a captcha: Resend waits for it, not for the countdown.
      if (captchaNeededOf(error)) setCountdown(0);
    }
    if (captchaToken || failure) afterCaptchaTry(failure);
  }, [body, message, captchaToken, afterCaptchaTry]);

  // Mail the first code when the drawer opens for this BIB (once, also under StrictMode).
  useEffect(() => {
    const key = `${products.eventId}:${products.bibNumber}`;
    if (sentFor.current === key) return;
    sentFor.current = key;
    void send();
  }, [products.eventId, products.bibNumber, send]);

  useEffect(() => {
    if (countdown <= 0) return;
    const timer = window.setTimeout(() => setCountdown((c) => c - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [countdown]);

  const verify = async () => {
    setBusy(true);
    try {
      await cartApi.verifyOtp({ ...body(), otp });
      message.success(OTP_VERIFIED_TEXT);
      await onVerified();
    } catch (error) {
      message.warning(isApiError(error) ? error.message : 'Server Error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Drawer open placement="bottom" closable={false} maskClosable={false} title="Verify it is you" size={320} data-testid="otp-drawer">
      <p>
        Photos of BIB {products.bibNumber} are private. We sent a one-time password to <strong data-testid="otp-email">{sentTo ?? email}</strong>.
      </p>
      {captchaStrength ? <CaptchaField resetKey={captchaResetKey} strength={captchaStrength} onChange={setCaptchaToken} /> : null}
      <Space wrap>
        <Input
          aria-label="OTP"
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="Enter 6 digit OTP"
          value={otp}
          maxLength={6}
          onChange={(e) => setOtp(otpInput(e.target.value))}
          onPressEnter={() => otp.length === 6 && void verify()}
          style={{ width: 180 }}
        />
        <Button type="primary" onClick={() => void verify()} disabled={otp.length !== 6} loading={busy}>
          Verify
        </Button>
        <Button onClick={() => void send()} disabled={countdown > 0 || (captchaStrength !== null && !captchaToken)} data-testid="otp-resend">
          {countdown > 0 ? `Resend in ${countdown}s` : 'Resend'}
        </Button>
        <Button type="link" onClick={() => navigate('/home')}>
          Back
        </Button>
      </Space>
    </Drawer>
  );
}
