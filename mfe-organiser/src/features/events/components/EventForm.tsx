import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Card, Checkbox, Col, Input, InputNumber, Radio, Row, Select, Switch } from 'antd';
import { Controller, useForm, useWatch, type Control, type ControllerRenderProps, type FieldPath } from 'react-hook-form';
import { yupResolver } from '@hookform/resolvers/yup';
import {
  bibFormatProblem,
  DEFAULT_BIB_FORMAT,
  EVENT_SWITCH_LABELS,
  EVENT_SWITCHES,
  eventFormSchema,
  eventsApi,
  matchesBibFormat,
  type EventFormInput,
  type OrganiserEvent,
  type OrganiserEventForm,
  type OrganiserSponsorOffer,
} from '@finishline/shared';
import { FormField } from '@finishline/shared/react';

/** A new event starts with the shop's copy prices and everything switched off. */
export const BLANK_EVENT: OrganiserEventForm = {
  name: '',
  from_date: '',
  to_date: '',
  location: '',
  theme_code: null,
  bib_pattern: null,
  single_photo_price: 100,
  extra_photo_price: 50,
  bundle_price: 500,
  video_price: 150,
  collage_price: 1179,
  print_prices: [],
  threshold_photo_count: 10,
  premium_pack_price: 449,
  ultra_premium_pack_price: 799,
  show_prempack: false,
  show_ultrapack: false,
  preorder_price: null,
  preorder_cut_price: null,
  sponsor_offer: null,
  issearchable: false,
  selfiesearch: false,
  showunlabeled: false,
  preorder_allowed: false,
  privacy_check: false,
  prints_disabled: false,
};

const BLANK_OFFER: OrganiserSponsorOffer = { coupon_name: '', sponsor_name: '', description: '', discount_type: 'percent', discount_amount: 10, max_orders_allowed: 3 };

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

/** One labelled form field bound to the form, with its validation message under it. */
function LabelledField({ control, name, label, input }: { control: Control<EventFormInput>; name: Name; label: string; input: (field: FieldBinding, id: string) => ReactNode }) {
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

function NumberField({ control, name, label, suffix }: { control: Control<EventFormInput>; name: Name; label: string; suffix?: string }) {
  return (
    <LabelledField
      control={control}
      name={name}
      label={label}
      input={(field, id) => <InputNumber id={id} style={{ width: '100%' }} prefix={suffix ? undefined : '₹'} suffix={suffix} value={field.value as number | null} onChange={(v) => field.onChange(v)} onBlur={field.onBlur} min={0} />}
    />
  );
}

function TextField({ control, name, label, type = 'text', placeholder }: { control: Control<EventFormInput>; name: Name; label: string; type?: string; placeholder?: string }) {
  return (
    <LabelledField
      control={control}
      name={name}
      label={label}
      input={(field, id) => <Input id={id} type={type} placeholder={placeholder} value={(field.value as string | null) ?? ''} onChange={(e) => field.onChange(e.target.value)} onBlur={field.onBlur} />}
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
          <Switch checked={Boolean(field.value)} onChange={(on) => field.onChange(on)} aria-label={typeof label === 'string' ? label : undefined} /> <span>{label}</span>
        </label>
      )}
    />
  );
}

/** Tries a BIB against the format being typed, so the organiser sees what the search will accept. */
function BibFormatTester({ pattern }: { pattern: string | null }) {
  const [sample, setSample] = useState('');
  const problem = pattern?.trim() ? bibFormatProblem(pattern) : null;
  const verdict = !sample.trim() || problem ? null : matchesBibFormat(pattern, sample);
  return (
    <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap', marginTop: -6, marginBottom: 14 }}>
      <Input aria-label="Try a BIB" placeholder="Try a BIB" value={sample} onChange={(e) => setSample(e.target.value)} style={{ maxWidth: 160 }} />
      {verdict === null ? null : verdict ? <span style={{ color: '#237804' }}>fits the format</span> : <span style={{ color: '#a8071a' }}>does not fit the format</span>}
    </div>
  );
}

/**
 * The organiser's event form: details, BIB format, prices (before GST), packages, pre-order, the
 * sponsor offer and the switches. The same yup schema checks it here and on the server.
 */
export function EventForm({ initial, printCatalogue, onSubmit, submitLabel, saving, showSwitches = true }: {
  initial: OrganiserEventForm;
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

  const submit = handleSubmit((values) => onSubmit({ ...(values as OrganiserEventForm), bib_pattern: values.bib_pattern?.trim() ? values.bib_pattern.trim() : null }));

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
              <Select id="ev-theme_code" style={{ width: '100%' }} allowClear placeholder="No theme" value={field.value ?? undefined} onChange={(v) => field.onChange(v ?? null)} options={themes.map((t) => ({ value: t.evtcode, label: t.evtname }))} />
            </FormField>
          )}
        />
        <TextField control={control} name="bib_pattern" label="BIB format (checked by the BIB reader, the search and the participants import)" placeholder={`e.g. ^TT\\d{5}$ (empty: ${DEFAULT_BIB_FORMAT})`} />
        <BibFormatTester pattern={pattern} />
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
                    <InputNumber id={`ev-print-${p.print_product_id}`} prefix="₹" min={0} style={{ width: '100%' }} placeholder={String(p.catalogue_price)} value={own?.price ?? null} onChange={(v) => setPrintPrice(p.print_product_id, v === null ? null : Number(v))} />
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
                    <Radio.Group id="ev-discount-type" value={field.value} onChange={(e) => field.onChange(e.target.value)} options={[{ value: 'percent', label: 'percent' }, { value: 'flat', label: 'rupees' }]} />
                  </FormField>
                )}
              />
            </Col>
            <Col xs={12} md={8}>
              <NumberField control={control} name="sponsor_offer.discount_amount" label="Discount per photo" suffix={offer.discount_type === 'percent' ? '%' : '₹'} />
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
          formState.isSubmitted && !formState.isValid ? <Alert type="error" showIcon message="Please correct the fields marked above." style={{ marginTop: 12 }} /> : <></>
        }
      />
      <Button type="primary" htmlType="submit" loading={saving} style={{ marginTop: 16 }}>
        {submitLabel}
      </Button>
    </form>
  );
}
