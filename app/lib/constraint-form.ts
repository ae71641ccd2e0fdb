import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { constraintErrors, type FormRules } from "./form-rules";

/** What a field's controls and messages are rendered from: Conform's field metadata, the part our forms read. */
export interface FieldMeta {
  id: string;
  name: string;
  formId: string;
  errorId: string;
  descriptionId: string;
  errors: string[] | undefined;
  valid: boolean;
  initialValue: unknown;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  pattern?: string;
  multiple?: boolean;
}

/** The form's own metadata: Conform's, the part `getFormProps` and our forms read. */
export interface FormMeta {
  id: string;
  errorId: string;
  errors: string[] | undefined;
  valid: boolean;
  /** Changes when the server's reply does: a key for what must start again from its initial value. */
  key: string;
  noValidate: true;
  onSubmit(event: FormEvent<HTMLFormElement>): void;
}

const isField = (target: EventTarget | null): target is HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement =>
  target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;

/**
 * Conform's `useForm` as our forms use it (validate a field when it loses focus, again on every input once it has
 * been, every field on submit; the server's reply shown the same way), with the browser's constraint validation
 * answering in the schema's words (./form-rules) instead of a schema in the browser. Conform's own hook weighs 9 KB
 * gzip'd, which no page can carry within the first-load budget (ADR 025); the server still parses with
 * Conform and zod, and `getFormProps` / `getInputProps` still make the markup. Ids follow Conform's.
 */
export function useConstraintForm({
  id,
  lastResult,
  rules,
  defaultValue,
}: {
  id: string;
  lastResult: SubmissionResult<string[]> | null | undefined;
  rules: FormRules;
  defaultValue?: Record<string, unknown>;
}): [FormMeta, Record<string, FieldMeta>] {
  const [errors, setErrors] = useState(() => errorsOf(lastResult));
  const touched = useRef(new Set<string>());
  const replies = useRef({ result: lastResult, key: "0", count: 0 });
  if (replies.current.result !== lastResult) {
    const count = replies.current.count + 1;
    replies.current = { result: lastResult, key: String(count), count };
  }
  // A new reply of the server's replaces what the browser found.
  useEffect(() => {
    setErrors(errorsOf(lastResult));
    touched.current = new Set(Object.keys(errorsOf(lastResult)));
  }, [lastResult]);

  useEffect(() => {
    const validate = (form: HTMLFormElement, name: string) => {
      const found = constraintErrors(form, rules);
      setErrors((current) => {
        const next = { ...current };
        if (found[name]) next[name] = found[name];
        else delete next[name];
        return next;
      });
    };
    const onBlur = (event: Event) => {
      const field = event.target;
      if (!isField(field) || !field.name || field.form?.id !== id) return;
      touched.current.add(field.name);
      validate(field.form, field.name);
    };
    const onInput = (event: Event) => {
      const field = event.target;
      if (!isField(field) || !field.name || field.form?.id !== id || !touched.current.has(field.name)) return;
      validate(field.form, field.name);
    };
    document.addEventListener("focusout", onBlur);
    document.addEventListener("input", onInput);
    document.addEventListener("change", onInput);
    return () => {
      document.removeEventListener("focusout", onBlur);
      document.removeEventListener("input", onInput);
      document.removeEventListener("change", onInput);
    };
  }, [id, rules]);

  const initialValue = (lastResult?.initialValue ?? defaultValue ?? {}) as Record<string, unknown>;
  const form: FormMeta = {
    id,
    errorId: `${id}-error`,
    errors: errors[""],
    valid: Object.keys(errors).length === 0,
    key: replies.current.key,
    noValidate: true,
    onSubmit(event) {
      const element = event.currentTarget;
      const found = constraintErrors(element, rules);
      if (Object.keys(found).length === 0) return;
      event.preventDefault();
      for (const name of Object.keys(found)) touched.current.add(name);
      setErrors(found);
      const first = Array.from(element.elements).find((field) => isField(field) && found[field.name]);
      (first as HTMLElement | undefined)?.focus();
    },
  };
  const fields = new Proxy({} as Record<string, FieldMeta>, {
    get: (_, name) => {
      if (typeof name !== "string") return undefined;
      const fieldId = `${id}-${name}`;
      return {
        ...rules.constraint[name],
        id: fieldId,
        name,
        formId: id,
        errorId: `${fieldId}-error`,
        descriptionId: `${fieldId}-description`,
        errors: errors[name],
        valid: !errors[name],
        initialValue: initialValue[name],
      } satisfies FieldMeta;
    },
  });
  return [form, fields];
}

/** The errors of a reply, without the fields it lists as valid (null). */
function errorsOf(result: SubmissionResult<string[]> | null | undefined) {
  const errors: Record<string, string[]> = {};
  for (const [name, list] of Object.entries(result?.error ?? {})) if (list?.length) errors[name] = list;
  return errors;
}

/** The form element's props (Conform's getFormProps for this metadata): its id, the submit check, and the errors. */
export function getFormProps(form: FormMeta) {
  return {
    id: form.id,
    onSubmit: form.onSubmit,
    noValidate: form.noValidate,
    "aria-describedby": form.errors ? form.errorId : undefined,
  };
}
