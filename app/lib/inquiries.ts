import { INQUIRY_CATEGORIES, INQUIRY_STATUSES } from "./constants";

/** How the operators' desk names an inquiry's status and category (ADR 072). */
export const inquiryStatusLabel = (status: string) => INQUIRY_STATUSES.find((option) => option.value === status)?.label ?? status;
export const categoryLabel = (category: string) => INQUIRY_CATEGORIES.find((option) => option.value === category)?.label ?? category;
export const inquiryStatusClass: Record<string, string> = {
  open: "bg-amber-100 text-amber-900",
  answered: "bg-emerald-100 text-emerald-900",
  closed: "bg-slate-200 text-slate-800",
};
