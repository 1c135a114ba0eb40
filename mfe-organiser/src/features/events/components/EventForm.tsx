import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Checkbox, Col, Input, InputNumber, Radio, Row, Select, Switch } from 'antd';
import { Controller, useForm, useWatch, type Control, type ControllerRenderProps, type FieldPath } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import {
  BIB_FORMAT_CHOICES,
  bibFormatChoiceOf,
  bibFormatProblem,
  DEFAULT_BIB_FORMAT,
  DIGITS_ONLY_FORMAT,
  prefixedFormatOf,
  type BibFormatChoice,
  EVENT_SWITCH_LABELS,
  EVENT_SWITCHES,
  eventFormSchema,
  eventsApi,
  matchesBibFormat,
  priceContradictions,
  type EventFormInput,
  type EventPricing,
  type OrganiserEvent,
  type OrganiserEventForm,
  type OrganiserSponsorOffer,
} from '@finishline/shared';
import { FormField } from '@finishline/shared/react';

/**
 * A new event starts with prices that agree with each other (the copy prices' "5 or more ₹500" cost
 * more than one photo plus four extras, ₹300; the premium package cost more than the photos it
 * replaced) and everything switched off.
 */
export const BLANK_EVENT: OrganiserEventForm = {
  name: '',
  from_date: '',
  to_date: '',
  location: '',
  theme_code: null,
  bib_pattern: null,
  single_photo_price: 100,
  extra_photo_price: 50,
  bundle_price: 250,
  video_price: 150,
  collage_price: 1179,
  print_prices: [],
  threshold_photo_count: 10,
  premium_pack_price: 199,
  ultra_premium_pack_price: 349,
  show_prempack: false,
  show_ultrapack: false,
  preorder_price: null,
  preorder_cut_price: null,
  sponsor_offer: null,
  partner_registration: false,
  issearchable: false,
  selfiesearch: false,
  showunlabeled: false,
  preorder_allowed: false,
  privacy_check: false,
  prints_disabled: false,
};

const BLANK_OFFER: OrganiserSponsorOffer = {
  coupon_name: '',
  sponsor_name: '',
  description: '',
  discount_type: 'percent',
  discount_amount: 10,
  max_orders_allowed: 3,
};

/** The editable part of an event the server returned. */
export function formOf(event: OrganiserEvent): OrganiserEventForm {
  const form = {} as Record<string, unknown>;
  for (const key of Object.keys(BLANK_EVENT)) form[key] = (event as unknown as Record<string, unknown>)[key];
  return form as unknown as OrganiserEventForm;
}

type Name = FieldPath<EventFormInput>;

const PRICE_FIELDS: Array<{ name: Name; label: string }> = [
  { name: 'single_photo_price', label: 'One photo' },
  { name: 'extra_photo_price', label: 'Each extra photo' },
  { name: 'bundle_price', label: 'Five or more photos' },
  { name: 'video_price', label: 'Video' },
  { name: 'collage_price', label: 'Collage' },
];

type FieldBinding = ControllerRenderProps<EventFormInput, Name>;

/** Where a field sits in the form: its binding and its label. */
interface FieldPlace {
  control: Control<EventFormInput>;
  name: Name;
  label: string;
}

/** One labelled form field bound to the form, with its validation message under it. */
function LabelledField({ control, name, label, input }: FieldPlace & { input: (field: FieldBinding, id: string) => ReactNode }) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <FormField label={label} htmlFor={`ev-${name}`} error={fieldState.error?.message}>
          {input(field, `ev-${name}`)}
        </FormField>
      )}
    />
  );
}

function NumberField({ suffix, ...place }: FieldPlace & { suffix?: string }) {
  return (
    <LabelledField
      {...place}
      input={(field, id) => (
        <InputNumber
          id={id}
          style={{ width: '100%' }}
          prefix={suffix ? undefined : '₹'}
          suffix={suffix}
          value={field.value as number | null}
          onChange={(v) => field.onChange(v)}
          onBlur={field.onBlur}
          min={0}
        />
      )}
    />
  );
}

function TextField({ type = 'text', placeholder, ...place }: FieldPlace & { type?: string; placeholder?: string }) {
  return (
    <LabelledField
      {...place}
      input={(field, id) => (
        <Input
          id={id}
          type={type}
          placeholder={placeholder}
          value={(field.value as string | null) ?? ''}
          onChange={(e) => field.onChange(e.target.value)}
          onBlur={field.onBlur}
        />
      )}
    />
  );
}

function SwitchRow({ control, name, label }: { control: Control<EventFormInput>; name: Name; label: ReactNode }) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <label className="fl-org-switch">
          <Switch checked={Boolean(field.value)} onChange={(on) => field.onChange(on)} aria-label={typeof label === 'string' ? label : undefined} />{' '}
          <span>{label}</span>
        </label>
      )}
    />
  );
}

/**
 * Tries BIBs against the format being chosen, so the organiser sees what the search will accept: the
 * sample BIBs typed here (one or more) and, for a saved event, its participant list.
 */
function BibFormatTester({ pattern, participantBibs }: { pattern: string | null; participantBibs: string[] | null }) {
  const [sample, setSample] = useState('');
  const problem = pattern?.trim() ? bibFormatProblem(pattern) : null;
  const samples = sample.split(/[\s,]+/).filter(Boolean);
  const misfits = participantBibs && !problem ? participantBibs.filter((bib) => !matchesBibFormat(pattern, bib)) : [];
  return (
    <div style={{ marginTop: -6, marginBottom: 14 }}>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
        <Input
          aria-label="Try BIBs"
          placeholder="Try BIBs, e.g. 1486, TT20608"
          value={sample}
          onChange={(e) => setSample(e.target.value)}
          style={{ maxWidth: 260 }}
        />
        {problem
          ? null
          : samples.map((bib) =>
              matchesBibFormat(pattern, bib) ? (
                <span key={bib} style={{ color: '#237804' }}>
                  {bib} fits the format
                </span>
              ) : (
                <span key={bib} style={{ color: '#a8071a' }}>
                  {bib} does not fit the format
                </span>
              ),
            )}
      </div>
      {participantBibs && participantBibs.length > 0 && !problem ? (
        <p data-testid="bib-format-participants" style={{ margin: '6px 0 0', color: misfits.length ? '#a8071a' : '#237804' }}>
          {misfits.length === 0
            ? `All ${participantBibs.length} participants' BIBs fit the format.`
            : `${misfits.length} of ${participantBibs.length} participants' BIBs do not fit the format, e.g. ${misfits.slice(0, 3).join(', ')}.`}
        </p>
      ) : null}
    </div>
  );
}

/** The BIB format by example (digits only, letters then digits from a real BIB), the expression as the advanced choice. */
function BibFormatField({
  control,
  pattern,
  onPattern,
}: {
  control: Control<EventFormInput>;
  pattern: string | null;
  onPattern: (pattern: string | null) => void;
}) {
  const [{ choice, example }, setState] = useState(() => bibFormatChoiceOf(pattern));
  const choose = (next: BibFormatChoice, nextExample = example) => {
    setState({ choice: next, example: nextExample });
    if (next === 'any') onPattern(null);
    if (next === 'digits') onPattern(DIGITS_ONLY_FORMAT);
    if (next === 'prefixed') onPattern(prefixedFormatOf(nextExample) ?? pattern);
  };
  const exampleProblem = choice === 'prefixed' && example.trim() && !prefixedFormatOf(example) ? 'Type a BIB made of letters then digits, like TT20608.' : null;
  return (
    <FormField label="BIB format (checked by the BIB reader, the search and the participants import)" htmlFor="ev-bib-format">
      <Radio.Group
        id="ev-bib-format"
        aria-label="BIB format"
        value={choice}
        onChange={(e) => choose(e.target.value as BibFormatChoice)}
        options={BIB_FORMAT_CHOICES}
      />
      {choice === 'prefixed' ? (
        <FormField label="A BIB of this race" htmlFor="ev-bib-example" error={exampleProblem ?? undefined}>
          <Input id="ev-bib-example" placeholder="TT20608" value={example} onChange={(e) => choose('prefixed', e.target.value)} style={{ maxWidth: 200 }} />
        </FormField>
      ) : null}
      {choice === 'advanced' ? (
        <TextField control={control} name="bib_pattern" label="Regular expression" placeholder={`e.g. ^TT\\d{5}$ (empty: ${DEFAULT_BIB_FORMAT})`} />
      ) : null}
      {choice !== 'advanced' && pattern ? <p style={{ color: '#666', margin: '4px 0 0' }}>As an expression: {pattern}</p> : null}
    </FormField>
  );
}

/**
 * The organiser's event form: details, BIB format, prices (before GST), packages, pre-order, the
 * sponsor offer and the switches. The same yup schema checks it here and on the server.
 */
export function EventForm({
  initial,
  printCatalogue,
  onSubmit,
  submitLabel,
  saving,
  showSwitches = true,
  participantBibs = null,
}: {
  initial: OrganiserEventForm;
  /** A saved event's participant BIBs, which the chosen BIB format is checked against as it changes. */
  participantBibs?: string[] | null;
  /** The edit form leaves the switches to their own panel, which saves each at once. */
  showSwitches?: boolean;
  printCatalogue?: OrganiserEvent['print_catalogue'];
  onSubmit: (form: OrganiserEventForm) => Promise<unknown>;
  submitLabel: string;
  saving: boolean;
}) {
  const { control, handleSubmit, reset, setValue } = useForm<EventFormInput>({
    resolver: yupResolver(eventFormSchema),
    defaultValues: initial as EventFormInput,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  useEffect(() => reset(initial as EventFormInput), [initial, reset]);
  const [themes, setThemes] = useState<Array<{ evtcode: string; evtname: string }>>([]);
  useEffect(() => {
    eventsApi
      .eventThemes()
      .then(({ result }) => setThemes(result.evtthemes))
      .catch(() => setThemes([]));
  }, []);
  const pattern = useWatch({ control, name: 'bib_pattern' }) ?? null;
  const offer = useWatch({ control, name: 'sponsor_offer' });
  const preorder = useWatch({ control, name: 'preorder_allowed' });
  const printPrices = useWatch({ control, name: 'print_prices' }) ?? [];
  const pricing = useWatch({ control });
  const contradictions = priceContradictions({ ...(initial as EventPricing), ...(pricing as Partial<EventPricing>) });

  const submit = handleSubmit((values) =>
    onSubmit({ ...(values as OrganiserEventForm), bib_pattern: values.bib_pattern?.trim() ? values.bib_pattern.trim() : null }),
  );

  const setPrintPrice = (id: number, price: number | null) => {
    const rest = printPrices.filter((p) => p.print_product_id !== id);
    setValue('print_prices', price === null ? rest : [...rest, { print_product_id: id, price }], { shouldDirty: true });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel} className="fl-org-form">
      <Card size="small" title="Event">
        <TextField control={control} name="name" label="Event name" />
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <TextField control={control} name="from_date" label="Starts on" type="date" />
          </Col>
          <Col xs={24} sm={12}>
            <TextField control={control} name="to_date" label="Ends on" type="date" />
          </Col>
        </Row>
        <TextField control={control} name="location" label="City" />
        <Controller
          name="theme_code"
          control={control}
          render={({ field, fieldState }) => (
            <FormField label="Theme" htmlFor="ev-theme_code" error={fieldState.error?.message}>
              <Select
                id="ev-theme_code"
                style={{ width: '100%' }}
                allowClear
                placeholder="No theme"
                value={field.value ?? undefined}
                onChange={(v) => field.onChange(v ?? null)}
                options={themes.map((t) => ({ value: t.evtcode, label: t.evtname }))}
              />
            </FormField>
          )}
        />
        <BibFormatField control={control} pattern={pattern} onPattern={(next) => setValue('bib_pattern', next, { shouldDirty: true, shouldValidate: true })} />
        <BibFormatTester pattern={pattern} participantBibs={participantBibs} />
      </Card>

      <Card size="small" title="Prices (rupees before GST)">
        <Row gutter={12}>
          {PRICE_FIELDS.map(({ name, label }) => (
            <Col xs={12} md={8} key={name}>
              <NumberField control={control} name={name} label={label} />
            </Col>
          ))}
        </Row>
        {printCatalogue && printCatalogue.length > 0 ? (
          <Row gutter={12}>
            {printCatalogue.map((p) => {
              const own = printPrices.find((x) => x.print_product_id === p.print_product_id);
              return (
                <Col xs={12} md={6} key={p.print_product_id}>
                  <FormField label={p.name} htmlFor={`ev-print-${p.print_product_id}`}>
                    <InputNumber
                      id={`ev-print-${p.print_product_id}`}
                      prefix="₹"
                      min={0}
                      style={{ width: '100%' }}
                      placeholder={String(p.catalogue_price)}
                      value={own?.price ?? null}
                      onChange={(v) => setPrintPrice(p.print_product_id, v === null ? null : Number(v))}
                    />
                  </FormField>
                </Col>
              );
            })}
          </Row>
        ) : (
          <p style={{ color: '#666', margin: 0 }}>Prints sell at the catalogue prices; set this event&apos;s own print prices once it is saved.</p>
        )}
      </Card>

      <Card size="small" title="Packages">
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <NumberField control={control} name="threshold_photo_count" label="Photos that make a package" suffix="photos" />
          </Col>
          <Col xs={12} md={8}>
            <NumberField control={control} name="premium_pack_price" label="Premium package" />
            <SwitchRow control={control} name="show_prempack" label="Offer the premium package" />
          </Col>
          <Col xs={12} md={8}>
            <NumberField control={control} name="ultra_premium_pack_price" label="Ultra premium package" />
            <SwitchRow control={control} name="show_ultrapack" label="Offer the ultra premium package" />
          </Col>
        </Row>
      </Card>

      {contradictions.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          data-testid="price-contradictions"
          title="These prices contradict each other"
          description={
            <ul style={{ margin: 0, paddingInlineStart: 18 }}>
              {contradictions.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          }
        />
      ) : null}

      <Card size="small" title="Pre-orders">
        {preorder ? (
          <Row gutter={12}>
            <Col xs={12}>
              <NumberField control={control} name="preorder_price" label="Pre-order price" />
            </Col>
            <Col xs={12}>
              <NumberField control={control} name="preorder_cut_price" label="Struck-through price" />
            </Col>
          </Row>
        ) : (
          <p style={{ color: '#666', margin: 0 }}>Switch on &quot;{EVENT_SWITCH_LABELS.preorder_allowed}&quot; to set the pre-order price.</p>
        )}
      </Card>

      <Card size="small" title="Sponsor offer">
        <Checkbox checked={Boolean(offer)} onChange={(e) => setValue('sponsor_offer', e.target.checked ? BLANK_OFFER : null, { shouldDirty: true })}>
          This event has a sponsor offer on digital photos
        </Checkbox>
        {offer ? (
          <Row gutter={12} style={{ marginTop: 12 }}>
            <Col xs={24} md={12}>
              <TextField control={control} name="sponsor_offer.sponsor_name" label="Sponsor" />
            </Col>
            <Col xs={24} md={12}>
              <TextField control={control} name="sponsor_offer.coupon_name" label="Coupon name" />
            </Col>
            <Col xs={24}>
              <TextField control={control} name="sponsor_offer.description" label="Description" />
            </Col>
            <Col xs={24} md={8}>
              <Controller
                name="sponsor_offer.discount_type"
                control={control}
                render={({ field }) => (
                  <FormField label="Discount in" htmlFor="ev-discount-type">
                    <Radio.Group
                      id="ev-discount-type"
                      value={field.value}
                      onChange={(e) => field.onChange(e.target.value)}
                      options={[
                        { value: 'percent', label: 'percent' },
                        { value: 'flat', label: 'rupees' },
                      ]}
                    />
                  </FormField>
                )}
              />
            </Col>
            <Col xs={12} md={8}>
              <NumberField
                control={control}
                name="sponsor_offer.discount_amount"
                label="Discount per photo"
                suffix={offer.discount_type === 'percent' ? '%' : '₹'}
              />
            </Col>
            <Col xs={12} md={8}>
              <NumberField control={control} name="sponsor_offer.max_orders_allowed" label="Photos per BIB" suffix="photos" />
            </Col>
          </Row>
        ) : null}
      </Card>

      {showSwitches ? (
        <Card size="small" title="Switches">
          <div className="fl-org-switches">
            {EVENT_SWITCHES.map((name) => (
              <SwitchRow key={name} control={control} name={name} label={EVENT_SWITCH_LABELS[name]} />
            ))}
          </div>
        </Card>
      ) : null}

      <Controller
        name="name"
        control={control}
        render={({ formState }) =>
          formState.isSubmitted && !formState.isValid ? (
            <Alert type="error" showIcon message="Please correct the fields marked above." style={{ marginTop: 12 }} />
          ) : (
            <></>
          )
        }
      />
      <Button type="primary" htmlType="submit" loading={saving} style={{ marginTop: 16 }}>
        {submitLabel}
      </Button>
    </form>
  );
}
