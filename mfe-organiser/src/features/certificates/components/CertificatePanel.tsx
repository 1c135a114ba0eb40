import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { App as AntApp, Alert, Button, Card, Checkbox, Input, Spin } from 'antd';
import { CERTIFICATE_SETTINGS_MESSAGES, organiserApi, templateFieldsProblem, type OrganiserCertificate } from '@finishline/shared';
import { backgroundFileProblem, readAsDataUrl } from '../state/backgroundFile';
import { problemOf, useCertificateAction } from '../state/useCertificateAction';
import { LookChoice } from './LookChoice';
import { draftOf, withAccent, withTitle, type CertificateDraft } from '../state/template';

// konva and the editor load only when this tab is opened: the dashboard's first screen stays light.
const TemplateEditor = lazy(() => import(/* webpackChunkName: "certificate-template-editor" */ './TemplateEditor'));

/**
 * The Certificate tab: the race's finisher certificate as its organiser sets it (on or off, the
 * title, the standard layout in the race's colour or an uploaded background, the fields placed on
 * the canvas) and a preview the server draws with a real finisher of the race.
 */
export function CertificatePanel({ eventId }: { eventId: number }) {
  const { message } = AntApp.useApp();
  const [settings, setSettings] = useState<OrganiserCertificate | null>(null);
  const [draft, setDraft] = useState<CertificateDraft | null>(null);
  const { busy, run, problem, setProblem, preview, setPreview } = useCertificateAction();
  const [failure, setFailure] = useState<string | null>(null);

  const load = useCallback(() => {
    organiserApi
      .certificate({ eventId })
      .then(({ result }) => {
        setSettings(result);
        setDraft(draftOf(result));
      })
      .catch((error) => setFailure(problemOf(error)));
  }, [eventId]);
  useEffect(load, [load]);

  if (failure) return <Alert type="error" showIcon title={failure} />;
  if (!settings || !draft) return <Spin />;

  if (!settings.has_results) {
    return (
      <section aria-label="Certificate" className="fl-org-panel fl-cert-panel">
        <Alert type="info" showIcon title="No results yet" description={CERTIFICATE_SETTINGS_MESSAGES.noResults} />
      </section>
    );
  }

  const change = (next: CertificateDraft) => {
    setDraft(next);
    setProblem(templateFieldsProblem(next.template_config));
  };
  const body = () => ({
    eventId,
    title: draft.title,
    accent_color: draft.accent_color,
    background_key: draft.background_key,
    template_config: draft.template_config,
  });

  const save = () =>
    run('save', async () => {
      const answer = await organiserApi.saveCertificate({ ...body(), active: draft.active });
      setSettings(answer.result);
      setDraft(draftOf(answer.result));
      setProblem(null);
      message.success(answer.message);
    });

  const showPreview = () =>
    run('preview', async () => {
      setPreview((await organiserApi.previewCertificate(body())).result);
      setProblem(null);
    });

  const upload = (file: File | undefined) =>
    run('upload', async () => {
      if (!file) return;
      const refused = backgroundFileProblem(file);
      if (refused) return setProblem(refused);
      const answer = await organiserApi.uploadCertificateBackground({ eventId, image: await readAsDataUrl(file) });
      change({ ...draft, background_key: answer.result.background_key, background_url: answer.result.background_url });
      message.success(answer.message);
    });

  const ownBackground = draft.background_key !== null;
  return (
    <section aria-label="Certificate" className="fl-org-panel fl-cert-panel">
      <Card title="Finisher certificate">
        <p>
          Every finisher of this race ({settings.finishers} with an official time) can make this certificate from their own photos with the certificate builder;
          the Ultra Premium package holds it too.
        </p>
        <div className="fl-cert-row">
          <Checkbox checked={draft.active} onChange={(e) => change({ ...draft, active: e.target.checked })}>
            Certificates on
          </Checkbox>
        </div>
        <div className="fl-cert-row">
          <label htmlFor="fl-cert-title">Title</label>
          <Input id="fl-cert-title" value={draft.title} maxLength={120} onChange={(e) => change(withTitle(draft, e.target.value))} />
        </div>
        <LookChoice
          owner="race"
          accent={draft.accent_color}
          onAccent={(accent) => change(withAccent(draft, accent))}
          ownBackground={ownBackground}
          onStandard={() => change({ ...draft, background_key: null, background_url: null })}
          onOwn={() => setProblem(ownBackground ? null : 'Please upload the background image.')}
          uploading={busy === 'upload'}
          onUpload={(file) => void upload(file)}
        />
      </Card>
      <Card title="Fields">
        <Suspense fallback={<Spin />}>
          <TemplateEditor
            config={draft.template_config}
            accent={draft.accent_color}
            backgroundUrl={draft.background_url}
            races={[{ event_id: eventId, event_name: settings.event_name }]}
            eventDate={settings.event_date}
            onChange={(config) => change({ ...draft, template_config: config })}
          />
        </Suspense>
      </Card>
      {problem ? <Alert type="error" showIcon title={problem} className="fl-cert-problem" /> : null}
      <div className="fl-cert-actions">
        <Button onClick={showPreview} loading={busy === 'preview'}>
          Preview
        </Button>
        <Button type="primary" onClick={save} loading={busy === 'save'}>
          Save certificate
        </Button>
      </div>
      {preview ? (
        <figure className="fl-cert-preview">
          <img src={preview.image} width={preview.width} height={preview.height} alt={`Preview of the certificate of ${preview.participant_name}`} />
          <figcaption>
            Drawn by the server with a finisher of this race: {preview.participant_name}, BIB {preview.bib_number}, {preview.finish_time}.{' '}
            {preview.with_photo
              ? 'The photo is the watermarked preview; the runner’s certificate has their own photo.'
              : 'This finisher has no photo yet: the slot stays empty.'}
          </figcaption>
        </figure>
      ) : null}
    </section>
  );
}
