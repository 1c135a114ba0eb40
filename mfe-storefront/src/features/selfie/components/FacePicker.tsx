import type { SeveralFacesResult } from '@finishline/shared';
import { SELFIE_PICK_HINT } from '../selfieRules';

export interface FaceChoices extends SeveralFacesResult {
  pick: (index: number) => void;
}

/** The selfie with a frame around every face found; the runner taps their own. */
export function FacePicker({ image, choices }: { image: string; choices: FaceChoices }) {
  return (
    <div className="fl-face-picker" data-testid="face-picker">
      <div className="fl-face-picker-image">
        <img src={image} alt="Your selfie: tap your own face" />
        {choices.faces.map((face, index) => (
          <button
            key={face.box.join(',')}
            type="button"
            className="fl-face-choice"
            data-testid="face-choice"
            aria-label={`Face ${index + 1}: this is me`}
            onClick={() => choices.pick(index)}
            style={{
              left: `${(face.box[0] / choices.width) * 100}%`,
              top: `${(face.box[1] / choices.height) * 100}%`,
              width: `${(face.box[2] / choices.width) * 100}%`,
              height: `${(face.box[3] / choices.height) * 100}%`,
            }}
          />
        ))}
      </div>
      <div className="fl-face-picker-hint">{SELFIE_PICK_HINT}</div>
    </div>
  );
}
