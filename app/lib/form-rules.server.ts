import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { z } from "zod";
import { FIELD_RULES, type FieldRule, type FormRules } from "./form-rules";

/**
 * A form's rules for the browser, from its zod schema: Conform's constraint attributes, and what the schema itself
 * says when each of them is broken, found by parsing a value that breaks only that rule (as Conform's own parse
 * reads a submitted form). The browser then validates with the attributes and these words, no zod.
 * Computed once per schema.
 */
export function formRules(schema: z.ZodTypeAny): FormRules {
  const known = cache.get(schema);
  if (known) return known;
  const constraint = getZodConstraint(schema) as FormRules["constraint"];
  const said: FormRules["messages"] = {};
  for (const [name, field] of Object.entries(constraint)) {
    // Nested fields (`games[0].slug`) keep the generic words: probing them would need a whole valid list around them.
    if (/[[.]/.test(name)) continue;
    const probes: Partial<Record<FieldRule, string>> = {};
    if (field.required) probes.valueMissing = "";
    if (field.minLength && field.minLength > 1) probes.tooShort = "a".repeat(field.minLength - 1);
    if (field.maxLength !== undefined) probes.tooLong = "a".repeat(field.maxLength + 1);
    if (field.min !== undefined) probes.rangeUnderflow = String(Number(field.min) - 1);
    if (field.max !== undefined) probes.rangeOverflow = String(Number(field.max) + 1);
    if (field.step !== undefined && field.min !== undefined) probes.stepMismatch = String(Number(field.min) + Number(field.step) / 2);
    // A value no format accepts: what the schema says then is its word for a wrong type or pattern.
    probes.typeMismatch = "not a valid value";
    const words: Partial<Record<FieldRule, string>> = {};
    for (const rule of FIELD_RULES) {
      const probe = probes[rule];
      if (probe === undefined) continue;
      const formData = new FormData();
      formData.set(name, probe);
      const submission = parseWithZod(formData, { schema });
      const message = submission.status === "error" ? submission.error?.[name]?.[0] : undefined;
      // Only the catalogue's Japanese words: zod's English defaults ("Required") are no message for a person.
      if (message && !/^[\x20-\x7e]*$/.test(message)) words[rule] = message;
    }
    if (field.pattern && words.typeMismatch) words.patternMismatch = words.typeMismatch;
    said[name] = words;
  }
  // Patterns leave the attributes: the browser would test the text as typed, the schemas test it normalised.
  const patterns: FormRules["patterns"] = {};
  for (const [name, field] of Object.entries(constraint)) {
    if (field.pattern === undefined) continue;
    patterns[name] = field.pattern;
    delete field.pattern;
  }
  const rules = { constraint, patterns, messages: said };
  cache.set(schema, rules);
  return rules;
}

const cache = new WeakMap<z.ZodTypeAny, FormRules>();
