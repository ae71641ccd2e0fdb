import { z } from "zod";
import { INQUIRY_BODY_MAX, INQUIRY_CATEGORIES, INQUIRY_NAME_MAX, type InquiryCategory } from "./constants";
import { messages } from "./messages";

/** Zod schemas shared by form actions, JSON routes and the browser (Conform validates with the same ones). */

const requiredText = (max: number) =>
  z
    .string({ required_error: messages.validation.required })
    .trim()
    .min(1, messages.validation.required)
    .max(max, messages.validation.maxLength(max));

const categoryValues = INQUIRY_CATEGORIES.map((category) => category.value) as [InquiryCategory, ...InquiryCategory[]];

export const inquirySchema = z.object({
  name: requiredText(INQUIRY_NAME_MAX),
  email: z
    .string({ required_error: messages.validation.required })
    .trim()
    .min(1, messages.validation.required)
    .max(254, messages.validation.maxLength(254))
    .email(messages.validation.email),
  category: z.enum(categoryValues, {
    errorMap: (issue) => ({
      message:
        issue.code === "invalid_type" && issue.received === "undefined"
          ? messages.validation.selectRequired
          : messages.validation.invalidChoice,
    }),
  }),
  body: requiredText(INQUIRY_BODY_MAX),
});
export type InquiryInput = z.infer<typeof inquirySchema>;
