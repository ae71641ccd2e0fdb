import { z } from "zod";
import { GAME_SLUG_MAX, PAGE_NUMBER_MAX } from "../constants";
import { queryInt } from "./fields";

/**
 * `/events?game=&page=&pastPage=`: the game filter is a slug (the select's empty choice is every game),
 * `page` pages the upcoming list and `pastPage` the past one.
 */
export const eventListQuerySchema = z.object({
  game: z
    .string()
    .max(GAME_SLUG_MAX)
    .regex(/^[a-z0-9-]*$/)
    .optional()
    .transform((slug) => slug || undefined),
  page: queryInt(0, PAGE_NUMBER_MAX).optional().default(0),
  pastPage: queryInt(0, PAGE_NUMBER_MAX).optional().default(0),
});
/** The join and leave buttons of an event page. */
export const eventActionSchema = z.object({ intent: z.enum(["join", "leave"]) });
