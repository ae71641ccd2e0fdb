import { z } from "zod";
import { USER_COMMUNITIES_MAX } from "../constants";
import { messages } from "../messages";
import { limitParam } from "./fields";

/** GET /api/user/communities: `?limit`, its maximum by default. */
export const userCommunitiesQuerySchema = z.object({ limit: limitParam(USER_COMMUNITIES_MAX, USER_COMMUNITIES_MAX) });

/** Joining or leaving a community from its page (a plain form). */
export const communityMembershipSchema = z.object({ intent: z.enum(["join", "leave"], { message: messages.validation.checkInput }) });
