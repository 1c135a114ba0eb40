import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Modal, Space, Typography } from 'antd';
import { CaptchaField } from '@finishline/shared/react';
import {
  discoveryApi,
  FACE_CONSENT_VERSION,
  isApiError,
  isSignedInValue,
  localStore,
  noFaceProblem,
  SELFIE_MAX_BYTES,
  SELFIE_MESSAGES,
  selfieFaceProblem,
  STORAGE_KEYS,
  type DescribedFace,
  type EventSummary,
  type SelfieSearchRequest,
} from '@finishline/shared';
import { useSelfieSearch } from '../api/useSelfieSearch';
import { loadOnDeviceModel, type OnDeviceModel } from '../api/onDeviceFaces';
import {
  cameraProblem,
  dataUrlBytes,
  OPT_OUT_FAILED,
  OPT_OUT_NEEDS_SELFIE,
  OPT_OUT_ONE_FACE,
  OPT_OUT_SIGN_IN,
  OPT_OUT_TEXT,
  OPT_OUT_TITLE,
  SELFIE_FORMAT_TEXT,
  SELFIE_HINT,
  SELFIE_SIZE_ERROR,
  selfieFileProblem,
} from '../selfieRules';
import { FaceConsentNotice } from './FaceConsentNotice';
import { FacePicker, type FaceChoices } from './FacePicker';

interface Props {
  event: EventSummary;
  open: boolean;
  onClose: () => void;
}

/**
 * Selfie modal: webcam preview with Capture and Retake, or Upload of a JPG/PNG up to 2 MB, with the
 * hint about facial features. 'Find My Photos' sends the selfie; it is never kept by the server.
 */
export function SelfieModal({ event, open, onClose }: Props) {
  const video = useRef<HTMLVideoElement | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const fileInput = useRef<HTMLInputElement | null>(null);
  const [cameraError, setCameraError] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [selfie, setSelfie] = useState<string | null>(null);
  const [cameraOn, setCameraOn] = useState(false);
  const [consented, setConsented] = useState(() => localStore.get(STORAGE_KEYS.faceSearchConsent) === FACE_CONSENT_VERSION);
  // Once this device used up its selfie searches the server asks for a captcha: shown until solved.
  const [captchaAsked, setCaptchaAsked] = useState(false);
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaReset, setCaptchaReset] = useState(0);
  // undefined while loading, null where the phone cannot run the model (the server path is used).
  const [model, setModel] = useState<OnDeviceModel | null | undefined>(undefined);
  const [analysing, setAnalysing] = useState(false);
  const [choices, setChoices] = useState<FaceChoices | null>(null);
  const { search, searching } = useSelfieSearch(event);
  const { message, modal } = App.useApp();

  const stopCamera = useCallback(() => {
    stream.current?.getTracks().forEach((track) => track.stop());
    stream.current = null;
    setCameraOn(false);
  }, []);

  const startCamera = useCallback(async () => {
    setCameraError(null);
    if (!navigator.mediaDevices?.getUserMedia) {
      setCameraError(cameraProblem(Object.assign(new Error('no camera'), { name: 'NotFoundError' })));
      return;
    }
    try {
      const media = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'user' }, audio: false });
      stream.current = media;
      if (video.current) {
        video.current.srcObject = media;
        await video.current.play().catch(() => undefined);
      }
      setCameraOn(true);
    } catch (error) {
      setCameraError(cameraProblem(error));
    }
  }, []);

  useEffect(() => {
    if (open && consented && !selfie) void startCamera();
    if (!open) {
      stopCamera();
      setSelfie(null);
      setFileError(null);
      setChoices(null);
    }
    return stopCamera;
  }, [open, consented]); // eslint-disable-line react-hooks/exhaustive-deps -- the camera follows the modal and the consent only

  // The on-device model is fetched only now that the modal is open (never with the storefront's first load).
  useEffect(() => {
    if (!open || !consented) return;
    let current = true;
    void loadOnDeviceModel().then((loaded) => {
      if (current) setModel(loaded);
    });
    return () => {
      current = false;
    };
  }, [open, consented]);

  const agree = () => {
    localStore.set(STORAGE_KEYS.faceSearchConsent, FACE_CONSENT_VERSION);
    setConsented(true);
  };

  /** Sends one search (with the captcha when one was asked for) and follows what it gave. */
  const runSearch = async (query: Pick<SelfieSearchRequest, 'selfieimg' | 'embedding' | 'faceQuality' | 'faceBox'>) => {
    const outcome = await search({ ...query, gCaptchToken: captchaAsked ? (captcha ?? undefined) : undefined });
    if (captchaAsked) {
      // A solved captcha is good once: the widget is solved again before another search.
      setCaptcha(null);
      setCaptchaReset((n) => n + 1);
    }
    if (outcome.kind === 'captcha') setCaptchaAsked(true);
    else if (outcome.kind !== 'none') setCaptchaAsked(false);
    if (outcome.kind === 'consent') setConsented(false);
    if (outcome.kind === 'found') onClose();
    return outcome;
  };

  const capture = () => {
    const source = video.current;
    if (!source || !source.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = source.videoWidth;
    canvas.height = source.videoHeight;
    canvas.getContext('2d')?.drawImage(source, 0, 0);
    let dataUrl = canvas.toDataURL('image/jpeg', 0.9);
    if (dataUrlBytes(dataUrl) > SELFIE_MAX_BYTES) dataUrl = canvas.toDataURL('image/jpeg', 0.7);
    setSelfie(dataUrl);
    setChoices(null);
    setFileError(null);
    stopCamera();
  };

  const retake = () => {
    setSelfie(null);
    setChoices(null);
    setFileError(null);
    void startCamera();
  };

  const upload = (file: File | undefined) => {
    if (!file) return;
    const problem = selfieFileProblem(file);
    if (problem) {
      setFileError(problem);
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      const dataUrl = String(reader.result);
      if (dataUrlBytes(dataUrl) > SELFIE_MAX_BYTES) {
        setFileError(SELFIE_SIZE_ERROR);
        return;
      }
      setFileError(null);
      setSelfie(dataUrl);
      setChoices(null);
      setChoices(null);
      stopCamera();
    };
    reader.readAsDataURL(file);
  };

  /**
   * On-device: the face's quality is checked here (the runner is told what to change), and only its
   * descriptor and quality measures are sent; the API checks the same gates.
   */
  const searchWithFace = async (face: DescribedFace) => {
    setChoices(null);
    const problem = selfieFaceProblem(face.quality);
    if (problem) {
      message.warning(problem);
      return;
    }
    const { size, brightness, sharpness, yaw, eyeLight } = face.quality;
    await runSearch({ embedding: face.descriptor, faceQuality: { size, brightness, sharpness, yaw, eyeLight } });
  };

  const sendToServer = async (image: string, faceBox?: [number, number, number, number]) => {
    setChoices(null);
    const outcome = await runSearch({ selfieimg: image, faceBox });
    if (outcome.kind === 'several') {
      setChoices({ ...outcome.choices, pick: (index) => void sendToServer(image, outcome.choices.faces[index]!.box) });
    }
  };

  const send = async () => {
    if (!selfie) return;
    if (!model) {
      await sendToServer(selfie);
      return;
    }
    setAnalysing(true);
    let found;
    try {
      found = await model.describe(selfie);
    } catch {
      setAnalysing(false);
      await sendToServer(selfie); // the phone could not analyse it: the server path, as before
      return;
    }
    setAnalysing(false);
    if (found.faces.length === 0) message.warning(noFaceProblem(found.hint));
    else if (found.faces.length === 1) await searchWithFace(found.faces[0]!);
    else {
      message.info(SELFIE_MESSAGES.severalFaces);
      const faces = found.faces;
      setChoices({ faces: faces.map((f) => ({ box: f.box })), width: found.width, height: found.height, pick: (index) => void searchWithFace(faces[index]!) });
    }
  };

  /** A signed-in runner asks to be left out of face search, with the face of this selfie. */
  const optOut = async () => {
    if (!isSignedInValue(localStore.get(STORAGE_KEYS.isSignedIn))) {
      message.warning(OPT_OUT_SIGN_IN);
      return;
    }
    if (!selfie) {
      message.info(OPT_OUT_NEEDS_SELFIE);
      return;
    }
    try {
      let body: { embedding: number[] } | { selfieimg: string } = { selfieimg: selfie };
      if (model) {
        const found = await model.describe(selfie);
        if (found.faces.length !== 1) {
          message.warning(found.faces.length === 0 ? SELFIE_MESSAGES.noFace : OPT_OUT_ONE_FACE);
          return;
        }
        body = { embedding: found.faces[0]!.descriptor };
      }
      const answer = await discoveryApi.faceOptOut(body);
      message.success(answer.message);
      onClose();
    } catch (error) {
      message.warning(isApiError(error) && !error.isNetworkError ? error.message : OPT_OUT_FAILED);
    }
  };

  const confirmOptOut = () =>
    modal.confirm({ title: OPT_OUT_TITLE, content: OPT_OUT_TEXT, okText: 'Leave me out', cancelText: 'Cancel', onOk: () => optOut() });

  if (open && !consented) {
    return (
      <Modal open={open} onCancel={onClose} title="Search by Selfie" footer={null} destroyOnHidden width={520}>
        <FaceConsentNotice onAgree={agree} onCancel={onClose} />
      </Modal>
    );
  }

  return (
    <Modal open={open} onCancel={onClose} title="Search by Selfie" footer={null} destroyOnHidden width={520}>
      <div className="fl-selfie" data-testid="selfie-modal">
        <Typography.Paragraph className="fl-selfie-hint">{SELFIE_HINT}</Typography.Paragraph>
        <div className="fl-selfie-frame">
          {selfie && choices ? (
            <FacePicker image={selfie} choices={choices} />
          ) : selfie ? (
            <img src={selfie} alt="Your selfie" data-testid="selfie-preview" />
          ) : (
            <video ref={video} muted playsInline aria-label="Camera preview" style={{ display: cameraOn ? 'block' : 'none' }} />
          )}
          {!selfie && !cameraOn ? <div className="fl-selfie-placeholder">{cameraError ? 'Camera off' : 'Starting camera…'}</div> : null}
        </div>
        {cameraError && !selfie ? <Alert type="warning" showIcon title={cameraError} data-testid="camera-error" /> : null}
        {fileError ? <Alert type="error" showIcon title={fileError} data-testid="selfie-file-error" /> : null}
        {captchaAsked ? (
          <div data-testid="selfie-captcha">
            <Typography.Paragraph>{SELFIE_MESSAGES.captchaNeeded}</Typography.Paragraph>
            <CaptchaField resetKey={captchaReset} onChange={setCaptcha} />
          </div>
        ) : null}
        <Space wrap className="fl-selfie-actions">
          {selfie ? (
            <Button onClick={retake} disabled={searching || analysing}>
              Retake
            </Button>
          ) : (
            <Button onClick={capture} disabled={!cameraOn}>
              Capture
            </Button>
          )}
          <Button onClick={() => fileInput.current?.click()} disabled={searching || analysing}>
            Upload
          </Button>
          <Button
            type="primary"
            onClick={() => void send()}
            disabled={!selfie || model === undefined || Boolean(choices) || (captchaAsked && !captcha)}
            loading={searching || analysing}
          >
            Find My Photos
          </Button>
        </Space>
        <Typography.Text
          type="secondary"
          className="fl-selfie-path"
          data-testid="selfie-path"
          data-path={model ? 'device' : model === null ? 'server' : 'loading'}
        >
          {model === undefined
            ? 'Preparing face matching…'
            : model
              ? 'Your face is matched on this phone: only a description of it (a list of numbers) is sent, and it is not kept.'
              : 'Your selfie is sent only to find your photos and is not kept.'}
        </Typography.Text>
        <Typography.Text type="secondary" className="fl-selfie-format">
          {SELFIE_FORMAT_TEXT}
        </Typography.Text>
        <Button type="link" size="small" className="fl-selfie-optout" onClick={confirmOptOut} disabled={searching || analysing}>
          Leave me out of face search
        </Button>
        <input
          ref={fileInput}
          type="file"
          accept="image/jpeg,image/png"
          hidden
          data-testid="selfie-file"
          onChange={(change) => {
            upload(change.target.files?.[0]);
            change.target.value = '';
          }}
        />
      </div>
    </Modal>
  );
}
