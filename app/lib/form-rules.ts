import { messages } from "./messages";

/** The HTML constraint rules a field's validity reports on (the ones a zod schema can say as attributes). */
export type FieldRule = "valueMissing" | "tooShort" | "tooLong" | "rangeUnderflow" | "rangeOverflow" | "stepMismatch" | "typeMismatch" | "patternMismatch";

/**
 * Conform's constraint (the attributes each field gets, less `pattern`), the patterns apart, and per field and rule
 * what the server's schema says.
 */
export interface FormRules {
  /** Checked here, not by the browser: the schemas read the text NFKC-normalised (full-width digits are digits). */
  patterns: Record<string, string>;
  constraint: Record<string, { required?: boolean; minLength?: number; maxLength?: number; min?: string | number; max?: string | number; step?: string | number; multiple?: boolean; pattern?: string }>;
  messages: Record<string, Partial<Record<FieldRule, string>>>;
}

/** Every rule, in the order a field reports them. */
export const FIELD_RULES: FieldRule[] = ["valueMissing", "tooShort", "tooLong", "rangeUnderflow", "rangeOverflow", "stepMismatch", "typeMismatch", "patternMismatch"];

/** What a broken rule says when the schema's own words are not at hand (a nested field). */
function fallback(rule: FieldRule, element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement) {
  if (rule === "valueMissing") return element instanceof HTMLSelectElement ? messages.validation.selectRequired : messages.validation.required;
  if (rule === "tooLong" && "maxLength" in element) return messages.validation.maxLength(element.maxLength);
  if (rule === "typeMismatch" && element.type === "email") return messages.validation.email;
  if (rule === "typeMismatch" && element.type === "url") return messages.validation.url;
  return messages.validation.checkInput;
}

const isField = (element: Element): element is HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement =>
  element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement;

/**
 * The rules the browser does not check on this field but the schema does, read off its text as the schemas read it
 * (NFKC, spaces folded): a pattern, and a number's range on a text input (min and max bind only type="number").
 */
function scriptedRule(element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, rules: FormRules): FieldRule | undefined {
  const text = element.value.normalize("NFKC").replace(/\s+/g, " ").trim();
  if (text === "") return undefined;
  const pattern = rules.patterns[element.name];
  if (pattern !== undefined && !new RegExp(`^(?:${pattern})$`, "u").test(text)) return "patternMismatch";
  const { min, max } = rules.constraint[element.name] ?? {};
  const value = Number(text.replace(/,/g, ""));
  if (element.type === "number" || !Number.isFinite(value)) return undefined;
  if (min !== undefined && value < Number(min)) return "rangeUnderflow";
  if (max !== undefined && value > Number(max)) return "rangeOverflow";
  return undefined;
}

/**
 * What is wrong with a form's fields by their own constraint validity (the attributes Conform set from the server's
 * zod schema), in the schema's words: the browser needs no schema library. Rules the attributes cannot
 * say (a refinement across fields, characters the server refuses) are checked by the server on submit, whose answer
 * the form shows the same way.
 */
export function constraintErrors(form: HTMLFormElement, rules: FormRules): Record<string, string[]> {
  const error: Record<string, string[]> = {};
  for (const element of Array.from(form.elements)) {
    if (!isField(element) || !element.name || !element.willValidate || error[element.name]) continue;
    const rule = FIELD_RULES.find((name) => element.validity[name]) ?? scriptedRule(element, rules);
    if (rule) error[element.name] = [rules.messages[element.name]?.[rule] ?? fallback(rule, element)];
  }
  return error;
}
