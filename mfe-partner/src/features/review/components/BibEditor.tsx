import { useState } from 'react';
import { App as AntApp, Button, Select, Space } from 'antd';
import { isApiError, setPhotoBibsSchema, supplyApi, type SupplyPhoto } from '@finishline/shared';
import { ValidationError } from 'yup';

/** Add, correct or remove the BIBs a photo is found under; saved BIBs are searchable at once. */
export function BibEditor(props: { photo: SupplyPhoto; onSaved: (photo: SupplyPhoto) => void }) {
  const { message } = AntApp.useApp();
  const [bibs, setBibs] = useState<string[]>(props.photo.bibs.map((b) => b.bibNumber));
  const [saving, setSaving] = useState(false);
  const changed = bibs.join(',') !== props.photo.bibs.map((b) => b.bibNumber).join(',');

  const save = async () => {
    try {
      const input = await setPhotoBibsSchema.validate({ photoId: props.photo.photoId, bibs });
      setSaving(true);
      const answer = await supplyApi.setBibs({ photoId: input.photoId, bibs: input.bibs });
      message.success(answer.message);
      props.onSaved(answer.result);
    } catch (error) {
      message.error(error instanceof ValidationError ? error.errors[0] : isApiError(error) ? error.message : 'Something went wrong !');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Space.Compact style={{ width: '100%' }}>
      <Select
        mode="tags"
        aria-label={`BIBs of ${props.photo.imageId}`}
        data-testid="bib-editor"
        style={{ width: '100%' }}
        placeholder="No BIB: unlabeled"
        value={bibs}
        tokenSeparators={[',', ' ']}
        onChange={(values: string[]) => setBibs(values.map((v) => v.trim().toUpperCase()).filter(Boolean))}
        open={false}
      />
      <Button type="primary" onClick={save} loading={saving} disabled={!changed}>
        Save
      </Button>
    </Space.Compact>
  );
}
