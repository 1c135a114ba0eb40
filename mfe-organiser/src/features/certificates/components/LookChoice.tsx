import { Radio } from 'antd';
import { BACKGROUND_MAX_MB } from '../state/backgroundFile';

interface Props {
  /** Whose colour and background: "race" (the Certificate tab) or "series". */
  owner: 'race' | 'series';
  accent: string;
  onAccent: (accent: string) => void;
  ownBackground: boolean;
  /** Back to the standard layout (the uploaded background is let go). */
  onStandard: () => void;
  /** "Own background" chosen: the caller asks for the upload when none is there yet. */
  onOwn: () => void;
  uploading: boolean;
  onUpload: (file: File | undefined) => void;
}

/**
 * The certificate's look, the same for a race and a series: the colour of the standard layout and
 * the choice between it and an uploaded background (JPEG or PNG, checked before it is sent).
 */
export function LookChoice({ owner, accent, onAccent, ownBackground, onStandard, onOwn, uploading, onUpload }: Props) {
  const Owner = owner === 'race' ? 'Race' : 'Series';
  const colourId = `fl-${owner}-colour`;
  return (
    <>
      <div className="fl-cert-row">
        <label htmlFor={colourId}>{Owner} colour</label>
        <input id={colourId} className="fl-cert-colour" type="color" value={accent} onChange={(e) => onAccent(e.target.value)} />
        <span>{accent}</span>
      </div>
      <Radio.Group
        className="fl-cert-kind"
        aria-label={owner === 'race' ? 'Background' : 'Series background'}
        value={ownBackground ? 'own' : 'standard'}
        onChange={(e) => (e.target.value === 'standard' ? onStandard() : onOwn())}
        options={[
          { value: 'standard', label: `Standard layout in the ${owner === 'race' ? 'race’s' : 'series’'} colour` },
          { value: 'own', label: 'Own background image' },
        ]}
      />
      <div className="fl-cert-row">
        <label className="fl-cert-upload">
          <span className="fl-cert-upload-button">{uploading ? 'Uploading…' : `Upload background (JPEG or PNG, at most ${BACKGROUND_MAX_MB} MB)`}</span>
          <input
            type="file"
            accept="image/jpeg,image/png"
            onChange={(e) => onUpload(e.target.files?.[0])}
            aria-label={owner === 'race' ? 'Background image' : 'Series background image'}
          />
        </label>
      </div>
    </>
  );
}
