import { useEffect, useState } from 'react';
import { Alert, App, Button, Input } from 'antd';
import { authApi, rememberEmailVerified } from '../api/authApi';
import { isApiError } from '@finishline/shared/runtime';
import { EMAIL_PROOF_MESSAGES, emailProofSchema } from '../schemas/accounts';
import type { EmailVerifyResult } from '../types/accounts';
import { FormField } from './FormField';

/** Like the privacy OTP: a new code is offered once this countdown reaches zero. */
export const EMAIL_CODE_RESEND_SECONDS = 30;

/**
 * Proving the signed-in account's email address: Send code mails a 6-digit code to it, the code is
 * typed here. Used by the shell's Confirm Email page, the order history (while orders wait for the
 * proof) and an order opened before the proof. `waiting` is how many orders wait for it.
 */
export function EmailProofPanel({ email, waiting = 0, onConfirmed }: { email: string; waiting?: number; onConfirmed: (result: EmailVerifyResult) => void }) {
  const { message } = App.useApp();
  const [sent, setSent] = useState(false);
  const [countdown, setCountdown] = useState(0);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (countdown <= 0) return;
    const timer = window.setTimeout(() => setCountdown((c) => c - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [countdown]);

  const send = async () => {
    setBusy(true);
    try {
      const answer = await authApi.emailCode();
      if (answer.result.emailVerified) {
        rememberEmailVerified(true);
        onConfirmed({ email: answer.result.email, emailVerified: true, ordersClaimed: 0 });
        return;
      }
      setSent(true);
      setCountdown(EMAIL_CODE_RESEND_SECONDS);
      message.success(answer.message, 4);
    } catch (failure) {
      message.warning(isApiError(failure) ? failure.message : 'Something Went Wrong', 4);
    } finally {
      setBusy(false);
    }
  };

  const confirm = async () => {
    try {
      emailProofSchema.validateSync({ code });
    } catch (invalid) {
      setError((invalid as Error).message);
      return;
    }
    setError(undefined);
    setBusy(true);
    try {
      const answer = await authApi.emailVerify({ code: code.trim() });
      rememberEmailVerified(true);
      message.success(answer.message, 4);
      onConfirmed(answer.result);
    } catch (failure) {
      setError(isApiError(failure) ? failure.message : 'Something Went Wrong');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Alert
      type="warning"
      showIcon
      data-testid="email-proof"
      style={{ marginBottom: 20, textAlign: 'left' }}
      message={waiting > 0 ? EMAIL_PROOF_MESSAGES.waiting(waiting, email) : `Confirm that ${email} is your email address.`}
      description={
        <div>
          <p style={{ margin: '4px 0 12px' }}>{EMAIL_PROOF_MESSAGES.howTo(email)}</p>
          {sent ? (
            <form
              aria-label="Confirm email address"
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                void confirm();
              }}
            >
              <FormField label="Code from the mail" htmlFor="email-proof-code" error={error}>
                <Input
                  id="email-proof-code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={6}
                  value={code}
                  onChange={(event) => setCode(event.target.value.replace(/\D/g, ''))}
                  style={{ maxWidth: 200 }}
                />
              </FormField>
              <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
                <Button type="primary" htmlType="submit" loading={busy} style={{ minHeight: 44 }}>
                  Confirm
                </Button>
                <Button onClick={() => void send()} disabled={countdown > 0 || busy} style={{ minHeight: 44 }}>
                  {countdown > 0 ? `Send a new code in ${countdown} s` : 'Send a new code'}
                </Button>
              </div>
            </form>
          ) : (
            <Button type="primary" onClick={() => void send()} loading={busy} style={{ minHeight: 44 }}>
              Send code
            </Button>
          )}
        </div>
      }
    />
  );
}
