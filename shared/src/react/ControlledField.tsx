import type { ReactNode } from 'react';
import { Controller, type Control, type ControllerRenderProps, type FieldPath, type FieldValues } from 'react-hook-form';
import { FormField, shownError } from './FormField';

/**
 * One labelled field of a react-hook-form form whose input is not a plain text box (radio buttons,
 * tick boxes, a text area): the input comes from `render`, the label and the message (shown once
 * the field was left or the form submitted) from here.
 */
export function ControlledField<T extends FieldValues>({
  control,
  name,
  label,
  id,
  submitted,
  render,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: string;
  id: string;
  submitted: boolean;
  render: (field: ControllerRenderProps<T, FieldPath<T>>) => ReactNode;
}) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <FormField label={label} htmlFor={id} error={shownError(fieldState, submitted)}>
          {render(field)}
        </FormField>
      )}
    />
  );
}
