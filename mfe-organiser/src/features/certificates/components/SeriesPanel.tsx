import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { App as AntApp, Alert, Button, Card, Checkbox, Input, Select, Spin, Tag } from 'antd';
import {
  CERTIFICATE_STANDARD_ACCENT,
  organiserApi,
  saveSeriesSchema,
  standardTemplate,
  templateFieldsProblem,
  type CertificateTemplateConfig,
  type OrganiserSeries,
  type OrganiserSeriesList,
  type SaveSeriesRequest,
} from '@finishline/shared';
import { backgroundFileProblem, readAsDataUrl } from '../state/backgroundFile';
import { problemOf, useCertificateAction } from '../state/useCertificateAction';
import { LookChoice } from './LookChoice';
import { withAccent, withTitle } from '../state/template';

// konva and the editor load only when a series is edited, as in the Certificate tab.
const TemplateEditor = lazy(() => import(/* webpackChunkName: "certificate-template-editor" */ './TemplateEditor'));

interface SeriesDraft {
  id: number | null;
  title: string;
  eventIds: number[];
  active: boolean;
  accent_color: string;
  background_key: string | null;
  background_url: string | null;
  template_config: CertificateTemplateConfig;
}

/** The standard layout for the draft's races (laid out again whenever the races change). */
const standardFor = (draft: Pick<SeriesDraft, 'title' | 'eventIds' | 'accent_color'>) =>
  standardTemplate({ title: draft.title, eventIds: draft.eventIds, accent: draft.accent_color });
const BLANK: SeriesDraft = {
  id: null,
  title: '',
  eventIds: [],
  active: true,
  accent_color: CERTIFICATE_STANDARD_ACCENT,
  background_key: null,
  background_url: null,
  template_config: standardFor({ title: '', eventIds: [], accent_color: CERTIFICATE_STANDARD_ACCENT }),
};

/** The series' Date field: the day of its last race (the day the runner completed it). */
const lastDate = (data: OrganiserSeriesList, eventIds: number[]) =>
  data.races
    .filter((r) => eventIds.includes(r.event_id))
    .map((r) => r.event_date)
    .sort()
    .at(-1) ?? '';

/**
 * The organiser's series (grand slams) below their events: two to four of their own races with
 * results, in order, one certificate for a runner who finished them all, in the standard layout in
 * the series' colour or on a background the organiser uploads, the fields placed on the konva canvas as in
 * the Certificate tab (a photo slot per race); the server previews it with a runner
 * who finished every race. Checked by the shared schema before it is sent; the server checks it
 * again, and that the races and the background are the organiser's.
 */
export function SeriesPanel() {
  const { message } = AntApp.useApp();
  const [data, setData] = useState<OrganiserSeriesList | null>(null);
  const [draft, setDraft] = useState<SeriesDraft | null>(null);
  const { busy, run, problem, setProblem, preview, setPreview } = useCertificateAction();
  const [failure, setFailure] = useState<string | null>(null);

  const load = useCallback(() => {
    organiserApi
      .series()
      .then(({ result }) => setData(result))
      .catch((error) => setFailure(problemOf(error)));
  }, []);
  useEffect(load, [load]);

  const edit = (series: OrganiserSeries | null) => {
    setProblem(null);
    setPreview(null);
    if (!series) return setDraft(BLANK);
    const { events, ...stored } = series;
    setDraft({ ...stored, eventIds: events.map((e) => e.event_id) });
  };

  /** The draft checked by the shared rules, as the routes take it; null: the problem is shown. */
  const request = async (current: SeriesDraft): Promise<SaveSeriesRequest | null> => {
    const input = await saveSeriesSchema.validate(current);
    const placed = templateFieldsProblem(current.template_config);
    if (placed) {
      setProblem(placed);
      return null;
    }
    return { ...input, eventIds: input.eventIds as number[], active: input.active === true, template_config: current.template_config };
  };

  const save = () =>
    run('save', async () => {
      if (!draft) return;
      setProblem(null);
      const body = await request(draft);
      if (!body) return;
      const answer = await organiserApi.saveSeries(body);
      message.success(answer.message);
      setDraft(null);
      setPreview(null);
      load();
    });

  const showPreview = () =>
    run('preview', async () => {
      if (!draft) return;
      setProblem(null);
      const body = await request(draft);
      if (body) setPreview((await organiserApi.previewSeries(body)).result);
    });

  const upload = (file: File | undefined) =>
    run('upload', async () => {
      if (!draft || !file) return;
      const refused = backgroundFileProblem(file);
      if (refused) return setProblem(refused);
      const answer = await organiserApi.uploadSeriesBackground({ image: await readAsDataUrl(file) });
      setDraft({ ...draft, background_key: answer.result.background_key, background_url: answer.result.background_url });
      setProblem(null);
      message.success(answer.message);
    });

  return (
    <section aria-label="Your series" className="fl-org-table">
      <div className="fl-org-table-head">
        <h2 style={{ margin: 0 }}>Series certificates</h2>
        {data && !draft ? (
          <Button onClick={() => edit(null)} disabled={data.races.filter((r) => r.has_results).length < 2}>
            New series
          </Button>
        ) : null}
      </div>
      <p className="fl-muted">
        A series (a grand slam) gives one certificate, with a photo of each race, to every runner who finished all its races: the same runner across races by
        email, else by name.
      </p>
      {failure ? <Alert type="error" showIcon title={failure} /> : null}
      {!data && !failure ? <Spin /> : null}
      {data && data.series.length === 0 && !draft ? <p>No series yet. Put two or more of your races with results in one.</p> : null}
      {data?.series.map((series) => (
        <Card
          key={series.id}
          size="small"
          className="fl-org-series"
          title={series.title}
          extra={
            <Button onClick={() => edit(series)} aria-label={`Edit ${series.title}`}>
              Edit
            </Button>
          }
        >
          <ol className="fl-org-series-races">
            {series.events.map((e) => (
              <li key={e.event_id}>{e.event_name}</li>
            ))}
          </ol>
          {series.active ? <Tag color="green">On</Tag> : <Tag>Off</Tag>}
          <span className="fl-muted">{series.background_key ? 'Own background' : `Standard layout in ${series.accent_color}`}</span>
        </Card>
      ))}
      {data && draft ? (
        <Card size="small" title={draft.id ? `Edit ${draft.title}` : 'New series'} className="fl-org-series">
          <label className="fl-org-field">
            <span>Series title</span>
            <Input value={draft.title} maxLength={120} onChange={(e) => setDraft(withTitle(draft, e.target.value))} />
          </label>
          <label className="fl-org-field">
            <span>Races, in the certificate&apos;s order</span>
            <Select
              mode="multiple"
              aria-label="Races, in the certificate's order"
              value={draft.eventIds}
              onChange={(ids: number[]) => setDraft({ ...draft, eventIds: ids, template_config: standardFor({ ...draft, eventIds: ids }) })}
              options={data.races.map((r) => ({
                value: r.event_id,
                label: r.has_results ? r.event_name : `${r.event_name} (no results yet)`,
                disabled: !r.has_results,
              }))}
              optionFilterProp="label"
              style={{ width: '100%' }}
            />
          </label>
          <Checkbox checked={draft.active} onChange={(e) => setDraft({ ...draft, active: e.target.checked })}>
            Series on
          </Checkbox>
          <LookChoice
            owner="series"
            accent={draft.accent_color}
            onAccent={(accent) => setDraft(withAccent(draft, accent))}
            ownBackground={draft.background_key !== null}
            onStandard={() => setDraft({ ...draft, background_key: null, background_url: null })}
            onOwn={() => setProblem(draft.background_key ? null : 'Please upload the background image.')}
            uploading={busy === 'upload'}
            onUpload={(file) => void upload(file)}
          />
          {draft.eventIds.length >= 2 ? (
            <div className="fl-org-series-fields">
              <h3>Fields</h3>
              <p className="fl-muted">Changing the races lays the fields out again in the standard layout.</p>
              <Suspense fallback={<Spin />}>
                <TemplateEditor
                  config={draft.template_config}
                  accent={draft.accent_color}
                  backgroundUrl={draft.background_url}
                  races={draft.eventIds.map((id) => ({ event_id: id, event_name: data.races.find((r) => r.event_id === id)?.event_name ?? `Race ${id}` }))}
                  eventDate={lastDate(data, draft.eventIds)}
                  onChange={(config) => {
                    setDraft({ ...draft, template_config: config });
                    setProblem(templateFieldsProblem(config));
                  }}
                />
              </Suspense>
            </div>
          ) : null}
          {problem ? <Alert type="error" showIcon title={problem} style={{ marginTop: 12 }} /> : null}
          <div className="fl-org-toolbar" style={{ marginTop: 12, justifyContent: 'flex-start' }}>
            <Button onClick={() => void showPreview()} loading={busy === 'preview'}>
              Preview
            </Button>
            <Button type="primary" loading={busy === 'save'} onClick={() => void save()}>
              Save series
            </Button>
            <Button onClick={() => setDraft(null)}>Cancel</Button>
          </div>
          {preview ? (
            <figure className="fl-cert-preview">
              <img src={preview.image} width={preview.width} height={preview.height} alt={`Preview of the series certificate of ${preview.participant_name}`} />
              <figcaption>
                Drawn by the server with a runner who finished every race: {preview.participant_name}, BIB {preview.bib_number}, {preview.finish_time}.{' '}
                {preview.with_photo
                  ? 'The photos are the watermarked previews; the runner’s certificate has their own photos.'
                  : 'A race without a photo of this runner leaves its slot empty.'}
              </figcaption>
            </figure>
          ) : null}
        </Card>
      ) : null}
    </section>
  );
}
