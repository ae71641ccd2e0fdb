import { z } from "zod";
import { messages } from "../messages";
import { uuidParam } from "./fields";

/**
 * The forms of 「ログイン中の端末」 (app/components/session-list.tsx): `sign-out-session` ends one session of the
 * user's, named by its id; `sign-out-others` every session but the caller's.
 */
export const sessionFormSchema = z.discriminatedUnion(
  "intent",
  [z.object({ intent: z.literal("sign-out-session"), sessionId: uuidParam }), z.object({ intent: z.literal("sign-out-others") })],
  { errorMap: () => ({ message: messages.validation.checkInput }) },
);
