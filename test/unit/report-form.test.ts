import { describe, expect, it } from "vitest";
import { REPORT_DIALOG_RULES } from "~/components/report-dialog-body";
import { formRules } from "~/lib/form-rules.server";
import { reportFormSchema } from "~/lib/validation/report";

// The report dialog carries its few rules instead of loading the /report page's data first: they must be the schema's.
describe("the report dialog's rules", () => {
  it("are what formRules reads off reportFormSchema for the fields a person fills in", () => {
    const page = formRules(reportFormSchema);
    for (const name of ["reason", "note"] as const) {
      expect(REPORT_DIALOG_RULES.constraint[name], name).toEqual(page.constraint[name]);
      for (const [rule, words] of Object.entries(REPORT_DIALOG_RULES.messages[name] ?? {})) expect(page.messages[name]?.[rule as "valueMissing"], `${name} ${rule}`).toBe(words);
    }
    expect(REPORT_DIALOG_RULES.messages.reason?.valueMissing).toBe("選択してください");
  });
});
