import { z } from "zod";
import { INQUIRY_BODY_MAX, INQUIRY_CATEGORIES, INQUIRY_NAME_MAX, type InquiryCategory } from "../constants";
import { messages } from "../messages";
import { emailText, multiLineText, singleLineText } from "./fields";

const categoryValues = INQUIRY_CATEGORIES.map((category) => category.value) as [InquiryCategory, ...InquiryCategory[]];

/** The inquiry form (/inquiry). */
export const inquirySchema = z.object({
  name: singleLineText(INQUIRY_NAME_MAX),
  email: emailText(),
  category: z.enum(categoryValues, {
    errorMap: (issue) => ({
      message:
        issue.code === "invalid_type" && issue.received === "undefined"
          ? messages.validation.selectRequired
          : messages.validation.invalidChoice,
    }),
  }),
  body: multiLineText(INQUIRY_BODY_MAX),
});
export type InquiryInput = z.infer<typeof inquirySchema>;
