import { useCallback, useEffect, useState } from 'react';
import { App as AntApp, Alert, Button, Card, Checkbox, Input, Select, Spin, Tag } from 'antd';
import { isApiError, organiserApi, saveSeriesSchema, type OrganiserSeries, type OrganiserSeriesList } from '@finishline/shared';

// A shared-schema refusal (yup's ValidationError) carries the message to show, as the server's does.
const messageOf = (error: unknown) =>
  isApiError(error) ? error.message : error instanceof Error && error.name === 'ValidationError' ? error.message : 'Something went wrong. Please try again.';

interface SeriesDraft {
  id: number | null;
  title: string;
  eventIds: number[];
  active: boolean;
}
const BLANK: SeriesDraft = { id: null, title: '', eventIds: [], active: true };

/**
 * The organiser's series (grand slams) below their events: two to four of their own races with
 * results, in order, one certificate for a runner who finished them all. Checked by the shared
 * schema before it is sent; the server checks it again, and that the races are the organiser's.
 */
export function SeriesPanel() {
  const { message } = AntApp.useApp();
  const [data, setData] = useState<OrganiserSeriesList | null>(null);
  const [draft, setDraft] = useState<SeriesDraft | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const load = useCallback(() => {
    organiserApi
      .series()
      .then(({ result }) => setData(result))
      .catch((error) => setFailure(messageOf(error)));
  }, []);
  useEffect(load, [load]);

  const edit = (series: OrganiserSeries | null) => {
    setProblem(null);
    setDraft(series ? { id: series.id, title: series.title, eventIds: series.events.map((e) => e.event_id), active: series.active } : BLANK);
  };

  const save = async () => {
    if (!draft) return;
    setProblem(null);
    try {
      const input = await saveSeriesSchema.validate(draft);
      setSaving(true);
      const answer = await organiserApi.saveSeries({ ...input, eventIds: input.eventIds as number[], active: input.active === true });
      message.success(answer.message);
      setDraft(null);
      load();
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setSaving(false);
    }
  };

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
        A series (a grand slam) gives one certificate, with a photo of each race, to every runner who finished all its races: the same runner across races by email, else by name.
      </p>
      {failure ? <Alert type="error" showIcon title={failure} /> : null}
      {!data && !failure ? <Spin /> : null}
      {data && data.series.length === 0 && !draft ? <p>No series yet. Put two or more of your races with results in one.</p> : null}
      {data?.series.map((series) => (
        <Card key={series.id} size="small" className="fl-org-series" title={series.title} extra={<Button onClick={() => edit(series)} aria-label={`Edit ${series.title}`}>Edit</Button>}>
          <ol className="fl-org-series-races">
            {series.events.map((e) => (
              <li key={e.event_id}>{e.event_name}</li>
            ))}
          </ol>
          {series.active ? <Tag color="green">On</Tag> : <Tag>Off</Tag>}
        </Card>
      ))}
      {data && draft ? (
        <Card size="small" title={draft.id ? `Edit ${draft.title}` : 'New series'} className="fl-org-series">
          <label className="fl-org-field">
            <span>Series title</span>
            <Input value={draft.title} maxLength={120} onChange={(e) => setDraft({ ...draft, title: e.target.value })} />
          </label>
          <label className="fl-org-field">
            <span>Races, in the certificate&apos;s order</span>
            <Select
              mode="multiple"
              aria-label="Races, in the certificate's order"
              value={draft.eventIds}
              onChange={(ids: number[]) => setDraft({ ...draft, eventIds: ids })}
              options={data.races.map((r) => ({ value: r.event_id, label: r.has_results ? r.event_name : `${r.event_name} (no results yet)`, disabled: !r.has_results }))}
              optionFilterProp="label"
              style={{ width: '100%' }}
            />
          </label>
          <Checkbox checked={draft.active} onChange={(e) => setDraft({ ...draft, active: e.target.checked })}>
            Series on
          </Checkbox>
          {problem ? <Alert type="error" showIcon title={problem} style={{ marginTop: 12 }} /> : null}
          <div className="fl-org-toolbar" style={{ marginTop: 12, justifyContent: 'flex-start' }}>
            <Button type="primary" loading={saving} onClick={() => void save()}>
              Save series
            </Button>
            <Button onClick={() => setDraft(null)}>Cancel</Button>
          </div>
        </Card>
      ) : null}
    </section>
  );
}
