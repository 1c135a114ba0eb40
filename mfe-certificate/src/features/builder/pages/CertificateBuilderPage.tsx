import { useEffect, useReducer } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Button, Skeleton, Steps } from 'antd';
import { CloseOutlined } from '@ant-design/icons';
import { localStore, STORAGE_KEYS } from '@finishline/shared';
import { useDocumentTitle } from '@finishline/shared/react';
import { useCertificateEvents } from '../api/useCertificateEvents';
import { prefilledRows } from '../state/rows';
import { builderReducer, initialBuilderState, STEPS } from '../state/steps';
import { SearchStep } from '../components/SearchStep';
import { SelectStep } from '../components/SelectStep';
import { ProcessStep } from '../components/ProcessStep';
import { PreviewStep } from '../components/PreviewStep';
import '../builder.css';

const STEP_TITLES = ['Select Events and Enter BIB Numbers', 'Select Image', 'Process Your Images', 'Preview and Download Your Certificate'];

/**
 * /eventcertificate (state: eventName, bibNumber): the four-step achievement certificate builder.
 * The first row is prefilled from the event the runner came from (or the stored Selected Event).
 */
export function CertificateBuilderPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state ?? {}) as { eventName?: string; bibNumber?: string };
  const { events, loading } = useCertificateEvents();
  const [state, dispatch] = useReducer(builderReducer, undefined, () => initialBuilderState());
  useDocumentTitle('Achievement Certificate');

  useEffect(() => {
    if (events.length === 0) return;
    const eventName = from.eventName ?? localStore.get(STORAGE_KEYS.selectedEvent);
    dispatch({ type: 'rows', rows: prefilledRows(events, eventName, from.bibNumber ?? localStore.get(STORAGE_KEYS.bibId)) });
    // Prefill once the events are known; later changes of the rows are the runner's.
  }, [events, from.eventName, from.bibNumber]);

  return (
    <div className="fl-cert" data-testid="certificate-builder">
      <header className="fl-cert-head">
        <h1 className="fl-cert-title">Achievement Certificate</h1>
        {state.step !== 'search' ? <Button type="text" aria-label="Close" icon={<CloseOutlined />} onClick={() => dispatch({ type: 'close' })} /> : null}
      </header>
      <Steps className="fl-cert-steps" size="small" current={STEPS.indexOf(state.step)} items={STEP_TITLES.map((title) => ({ title }))} responsive={false} />
      {loading ? (
        <Skeleton active />
      ) : state.step === 'search' ? (
        <SearchStep
          events={events}
          rows={state.rows}
          onRows={(rows) => dispatch({ type: 'rows', rows })}
          onFound={(found) => dispatch({ type: 'searched', events: found })}
          onBack={() => navigate('/products')}
        />
      ) : state.step === 'select' ? (
        <SelectStep
          events={state.events}
          onToggle={(eventId, photo) => dispatch({ type: 'toggleImage', eventId, photo })}
          onPage={(eventId, images, pagination) => dispatch({ type: 'page', eventId, images, pagination })}
          onTemplate={(template) => dispatch({ type: 'template', template })}
          onEditSearch={() => dispatch({ type: 'editSearch' })}
        />
      ) : state.step === 'process' ? (
        <ProcessStep
          state={state}
          onCropped={(image) => dispatch({ type: 'cropped', image })}
          onGenerate={() => dispatch({ type: 'generate' })}
          onBack={() => dispatch({ type: 'back' })}
        />
      ) : state.template ? (
        <PreviewStep
          details={state.template}
          processed={state.processed}
          onBack={() => dispatch({ type: 'back' })}
          onCancel={() => dispatch({ type: 'close' })}
        />
      ) : null}
    </div>
  );
}
