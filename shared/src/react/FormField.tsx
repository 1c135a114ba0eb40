import type { ReactNode } from 'react';

/** A labelled form row with its validation message underneath (spec: errors show under each field). */
export function FormField({ label, htmlFor, error, children }: { label: string; htmlFor: string; error?: string; children: ReactNode }) {
  return (
    <div className="fl-field" style={{ marginBottom: 14 }}>
      <label htmlFor={htmlFor} style={{ display: 'block', fontWeight: 500, marginBottom: 4 }}>
        {label}
      </label>
      {children}
      {error ? (
        <div role="alert" className="fl-field-error" style={{ color: '#d4380d', fontSize: 13, marginTop: 4 }}>
          {error}
        </div>
      ) : null}
    </div>
  );
}

/**
 * A field's message is shown once the visitor has left the field or tried to submit, so a rule that
 * re-checks a field (the confirmation, when the password changes) does not flash errors on fields
 * not filled yet.
 */
export function shownError(fieldState: { isTouched: boolean; error?: { message?: string } }, submitted: boolean): string | undefined {
  return fieldState.isTouched || submitted ? fieldState.error?.message : undefined;
}
