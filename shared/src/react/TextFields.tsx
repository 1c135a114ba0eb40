import { Input } from 'antd';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { FormField, shownError } from './FormField';

/** One text input of a form: its field name, label and the browser's autofill hint. */
export interface TextFieldSpec<T extends FieldValues> {
  name: FieldPath<T>;
  label: string;
  autoComplete?: string;
  type?: 'text' | 'email' | 'tel';
  password?: boolean;
  inputMode?: 'numeric';
  /** Shown but not editable (a value prefilled from an order, say). */
  readOnly?: boolean;
  /** Fields re-validated when this one changes (a confirmation follows its password). */
  deps?: Array<FieldPath<T>>;
}

/**
 * The labelled inputs of a react-hook-form form, each with its message underneath: the rows that
 * sign-up, contact, reset and change password all render the same way. Messages show once a field
 * was left or the form submitted (`shownError`), or at once with `showErrorsAtOnce`.
 */
export function TextFields<T extends FieldValues>({
  fields,
  control,
  idPrefix,
  submitted,
  showErrorsAtOnce = false,
}: {
  fields: Array<TextFieldSpec<T>>;
  control: Control<T>;
  idPrefix: string;
  submitted: boolean;
  showErrorsAtOnce?: boolean;
}) {
  return (
    <>
      {fields.map((spec) => (
        <Controller
          key={spec.name}
          name={spec.name}
          control={control}
          rules={spec.deps ? { deps: spec.deps } : undefined}
          render={({ field, fieldState }) => {
            const id = `${idPrefix}-${spec.name}`;
            const error = showErrorsAtOnce ? fieldState.error?.message : shownError(fieldState, submitted);
            return (
              <FormField label={spec.label} htmlFor={id} error={error}>
                {spec.password ? (
                  <Input.Password id={id} autoComplete={spec.autoComplete} {...field} />
                ) : (
                  <Input id={id} type={spec.type ?? 'text'} autoComplete={spec.autoComplete} inputMode={spec.inputMode} readOnly={spec.readOnly} {...field} />
                )}
              </FormField>
            );
          }}
        />
      ))}
    </>
  );
}
