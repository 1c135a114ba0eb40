import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { Alert, App as AntApp, Button, Input, InputNumber, Result, Spin } from 'antd';
import { Controller, useForm, type Control, type FieldPath } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import {
  isApiError,
  operatorApi,
  organiserRequestSchema,
  readLocalSession,
  type MyOrganiserRequestResult,
  type OrganiserRequestFields,
} from '@finishline/shared';
import { FormField, shownError, useDocumentTitle } from '@finishline/shared/react';

type Values = Required<OrganiserRequestFields>;
const BLANK: Values = {
  raceName: '',
  fromDate: '',
  toDate: '',
  city: '',
  expectedRunners: undefined as unknown as number,
  contactName: '',
  contactPhone: '',
  note: '',
};

const when = (iso: string) => new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-IN', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });

/**
 * /list-your-race: any signed-in account asks to organise races (race name, dates, city, expected
 * runners, contact). The page shows the account's request as it stands: waiting, declined with the
 * reason (and the form again), or approved. An operator answers in the Operator Console.
 */
export function ListYourRacePage() {
  const session = readLocalSession();
  const { message } = AntApp.useApp();
  const [state, setState] = useState<MyOrganiserRequestResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  useDocumentTitle('List your race');
  const { control, handleSubmit, formState, reset } = useForm<Values>({
    resolver: yupResolver(organiserRequestSchema) as never,
    defaultValues: BLANK,
    mode: 'onTouched',
  });

  const load = useCallback(() => {
    setFailure(null);
    operatorApi
      .myRequest()
      .then(({ result }) => setState(result))
      .catch((error) => setFailure(isApiError(error) ? error.message : 'Something went wrong. Please try again.'));
  }, []);
  useEffect(() => {
    if (session.signedIn) load();
  }, [session.signedIn, load]);

  if (!session.signedIn) return <Navigate to="/sign-in" replace state={{ redirectTo: '/list-your-race' }} />;

  const send = handleSubmit(async (values) => {
    setSending(true);
    try {
      const answer = await operatorApi.askToOrganise(values);
      message.success(answer.message);
      reset(BLANK);
      load();
    } catch (error) {
      message.error(isApiError(error) ? error.message : 'Something went wrong. Please try again.');
    } finally {
      setSending(false);
    }
  });

  const request = state?.request ?? null;
  let status: ReactNode = null;
  if (state?.isOrganiser) {
    status = <Result status="success" title="Your account organises races" extra={<Link to="/organization_dashboard">Open the Event Dashboard</Link>} />;
  } else if (request?.status === 'pending') {
    status = (
      <Alert
        type="info"
        showIcon
        message="Your request is being reviewed"
        description={`${request.raceName}, ${request.city}, from ${when(request.fromDate)}: we review requests within two working days and mail ${request.accountEmail} the answer.`}
      />
    );
  } else if (request?.status === 'declined') {
    status = (
      <Alert
        type="warning"
        showIcon
        message={`We could not list ${request.raceName}`}
        description={`${request.declineReason} You may send a new request below.`}
        style={{ marginBottom: 16 }}
      />
    );
  } else if (request?.status === 'approved') {
    status = (
      <Alert type="success" showIcon message={`${request.raceName} can be listed`} description="Sign in again to find Event Dashboard in the account menu." />
    );
  }
  const showForm = state !== null && !state.isOrganiser && request?.status !== 'pending' && request?.status !== 'approved';

  return (
    <div style={{ maxWidth: 640, margin: '24px auto', padding: '0 16px' }} data-testid="list-your-race">
      <h1 style={{ fontSize: 26 }}>List your race</h1>
      <p style={{ marginTop: 0 }}>
        Organise a race on Finishline: runners find their photos by BIB or selfie, photographers register and upload, and you see the revenue. Tell us about the
        race and we will set up your organiser account.
      </p>
      {failure ? <Alert type="error" showIcon message={failure} action={<Button onClick={load}>Try again</Button>} /> : null}
      {state === null && !failure ? <Spin /> : null}
      {status}
      {showForm ? (
        <form onSubmit={send} noValidate aria-label="List your race">
          <Text control={control} name="raceName" label="Race name" submitted={formState.isSubmitted} autoComplete="off" />
          <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
            <div style={{ flex: '1 1 200px' }}>
              <Text control={control} name="fromDate" label="First day" type="date" submitted={formState.isSubmitted} />
            </div>
            <div style={{ flex: '1 1 200px' }}>
              <Text control={control} name="toDate" label="Last day" type="date" submitted={formState.isSubmitted} />
            </div>
          </div>
          <Text control={control} name="city" label="City" submitted={formState.isSubmitted} autoComplete="address-level2" />
          <Controller
            name="expectedRunners"
            control={control}
            render={({ field, fieldState }) => (
              <FormField label="Expected runners" htmlFor="lr-expectedRunners" error={shownError(fieldState, formState.isSubmitted)}>
                <InputNumber
                  id="lr-expectedRunners"
                  style={{ width: '100%' }}
                  min={1}
                  precision={0}
                  value={field.value ?? null}
                  onChange={(v) => field.onChange(v ?? undefined)}
                  onBlur={field.onBlur}
                  inputMode="numeric"
                />
              </FormField>
            )}
          />
          <Text control={control} name="contactName" label="Contact name" submitted={formState.isSubmitted} autoComplete="name" />
          <Text control={control} name="contactPhone" label="Contact mobile" type="tel" submitted={formState.isSubmitted} autoComplete="tel-national" />
          <Controller
            name="note"
            control={control}
            render={({ field, fieldState }) => (
              <FormField label="Anything else we should know (optional)" htmlFor="lr-note" error={shownError(fieldState, formState.isSubmitted)}>
                <Input.TextArea
                  id="lr-note"
                  rows={3}
                  maxLength={500}
                  value={field.value}
                  onChange={(e) => field.onChange(e.target.value)}
                  onBlur={field.onBlur}
                />
              </FormField>
            )}
          />
          <Button type="primary" htmlType="submit" loading={sending} size="large">
            Send request
          </Button>
        </form>
      ) : null}
    </div>
  );
}

function Text({
  control,
  name,
  label,
  type = 'text',
  submitted,
  autoComplete,
}: {
  control: Control<Values>;
  name: FieldPath<Values>;
  label: string;
  type?: string;
  submitted: boolean;
  autoComplete?: string;
}) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <FormField label={label} htmlFor={`lr-${name}`} error={shownError(fieldState, submitted)}>
          <Input
            id={`lr-${name}`}
            type={type}
            autoComplete={autoComplete}
            value={(field.value as string) ?? ''}
            onChange={(e) => field.onChange(e.target.value)}
            onBlur={field.onBlur}
          />
        </FormField>
      )}
    />
  );
}
