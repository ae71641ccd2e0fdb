import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import type { HoneypotInputProps } from "remix-utils/honeypot/server";
import type { FieldMeta } from "~/lib/constraint-form";

type Errors = string[] | undefined;
type AnyField = FieldMeta;
/** Conform's prop helpers read only the part of its field metadata that FieldMeta has. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const conform = (meta: FieldMeta) => meta as unknown as FieldMetadata<any, any, string[]>;

export function ErrorList({ id, errors }: { id?: string; errors: Errors }) {
  if (!errors?.length) return null;
  return (
    // The alert wraps the list: role="alert" on the <ul> itself would take away its list role and orphan the items.
    <div id={id} className="field-error" role="alert">
      <ul>
        {errors.map((error) => (
          <li key={error}>{error}</li>
        ))}
      </ul>
    </div>
  );
}

interface FieldProps<Meta> {
  meta: Meta;
  label: string;
  hint?: string;
}

function FieldFrame({ meta, label, hint, children }: FieldProps<AnyField> & { children: React.ReactNode }) {
  return (
    <div>
      <label htmlFor={meta.id} className="field-label">
        {label}
        {meta.required ? <span className="ml-1 text-xs font-normal text-red-600">必須</span> : null}
      </label>
      {children}
      {hint ? (
        <p id={meta.descriptionId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export function TextField({
  meta,
  label,
  hint,
  type = "text",
  autoComplete,
  inputMode,
}: FieldProps<AnyField> & { type?: "text" | "email" | "password" | "url"; autoComplete?: string; inputMode?: "numeric" | "text" }) {
  return (
    <FieldFrame meta={meta} label={label} hint={hint}>
      <input
        {...getInputProps(conform(meta), { type, ariaDescribedBy: hint ? meta.descriptionId : undefined })}
        autoComplete={autoComplete}
        inputMode={inputMode}
        className="field-input"
      />
    </FieldFrame>
  );
}

export function TextareaField({ meta, label, hint, rows = 6 }: FieldProps<AnyField> & { rows?: number }) {
  return (
    <FieldFrame meta={meta} label={label} hint={hint}>
      <textarea {...getTextareaProps(conform(meta), { ariaDescribedBy: hint ? meta.descriptionId : undefined })} rows={rows} className="field-input" />
    </FieldFrame>
  );
}

export function SelectField({
  meta,
  label,
  hint,
  options,
  placeholder = "選択してください",
}: FieldProps<AnyField> & { options: ReadonlyArray<{ value: string; label: string }>; placeholder?: string }) {
  const props = getSelectProps(conform(meta), { ariaDescribedBy: hint ? meta.descriptionId : undefined });
  // A forged post can repeat the field; a single select shows the first value it sent back.
  const defaultValue = Array.isArray(props.defaultValue) ? props.defaultValue[0] : props.defaultValue;
  return (
    <FieldFrame meta={meta} label={label} hint={hint}>
      <select {...props} defaultValue={defaultValue} className="field-input">
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/**
 * The hidden fields of remix-utils' honeypot, hidden with a class rather than the inline style
 * remix-utils uses, which our Content-Security-Policy does not allow.
 */
export function HoneypotFields({ nameFieldName, validFromFieldName, encryptedValidFrom }: HoneypotInputProps) {
  return (
    <div className="hidden" aria-hidden="true">
      <label>
        この欄は空欄のままにしてください
        <input name={nameFieldName} type="text" defaultValue="" autoComplete="off" tabIndex={-1} />
      </label>
      {validFromFieldName ? (
        <input name={validFromFieldName} type="hidden" value={encryptedValidFrom} readOnly />
      ) : null}
    </div>
  );
}
