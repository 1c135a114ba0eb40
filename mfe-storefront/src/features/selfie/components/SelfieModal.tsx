import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button, Modal, Space, Typography } from 'antd';
import { SELFIE_MAX_BYTES, type EventSummary } from '@finishline/shared';
import { useSelfieSearch } from '../api/useSelfieSearch';
import { cameraProblem, dataUrlBytes, SELFIE_FORMAT_TEXT, SELFIE_HINT, SELFIE_SIZE_ERROR, selfieFileProblem } from '../selfieRules';


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
  const { search, searching } = useSelfieSearch(event);

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
    if (open && !selfie) void startCamera();
    if (!open) {
      stopCamera();
      setSelfie(null);
      setFileError(null);
    }
    return stopCamera;
  }, [open]); // eslint-disable-line react-hooks/exhaustive-deps -- the camera follows the modal only

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
    setFileError(null);
    stopCamera();
  };

  const retake = () => {
    setSelfie(null);
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
      stopCamera();
    };
    reader.readAsDataURL(file);
  };

  const send = async () => {
    if (!selfie) return;
    const found = await search(selfie);
    if (found) onClose();
  };

  return (
    <Modal open={open} onCancel={onClose} title="Search by Selfie" footer={null} destroyOnHidden width={520}>
      <div className="fl-selfie" data-testid="selfie-modal">
        <Typography.Paragraph className="fl-selfie-hint">{SELFIE_HINT}</Typography.Paragraph>
        <div className="fl-selfie-frame">
          {selfie ? (
            <img src={selfie} alt="Your selfie" data-testid="selfie-preview" />
          ) : (
            <video ref={video} muted playsInline aria-label="Camera preview" style={{ display: cameraOn ? 'block' : 'none' }} />
          )}
          {!selfie && !cameraOn ? <div className="fl-selfie-placeholder">{cameraError ? 'Camera off' : 'Starting camera…'}</div> : null}
        </div>
        {cameraError && !selfie ? <Alert type="warning" showIcon title={cameraError} data-testid="camera-error" /> : null}
        {fileError ? <Alert type="error" showIcon title={fileError} data-testid="selfie-file-error" /> : null}
        <Space wrap className="fl-selfie-actions">
          {selfie ? (
            <Button onClick={retake} disabled={searching}>
              Retake
            </Button>
          ) : (
            <Button onClick={capture} disabled={!cameraOn}>
              Capture
            </Button>
          )}
          <Button onClick={() => fileInput.current?.click()} disabled={searching}>
            Upload
          </Button>
          <Button type="primary" onClick={() => void send()} disabled={!selfie} loading={searching}>
            Find My Photos
          </Button>
        </Space>
        <Typography.Text type="secondary" className="fl-selfie-format">
          {SELFIE_FORMAT_TEXT}
        </Typography.Text>
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
