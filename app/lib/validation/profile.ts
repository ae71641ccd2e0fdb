import { z } from "zod";
import { BIO_MAX, DISPLAY_NAME_MAX, GAME_RANK_MAX, GAME_SLUG_MAX, PROFILE_GAMES_MAX, URL_MAX } from "../constants";
import { messages } from "../messages";
import { multiLineText, singleLineText, storableText } from "./fields";

/** A profile (POST /api/user/profile and /mypage/gamer-edit). Games are the ones ticked, each with an optional rank. */
export const profileSchema = z.object({
  displayName: singleLineText(DISPLAY_NAME_MAX),
  bio: multiLineText(BIO_MAX, { required: false }).optional().default(""),
  // An uploaded avatar (`/uploads/avatar/…`, or the storage bucket's https URL); null removes it, absent keeps it.
  avatarUrl: storableText(z.string().trim().max(URL_MAX, messages.validation.maxLength(URL_MAX)), false)
    .refine((url) => /^https?:\/\/[^\s]+$/.test(url) || /^\/uploads\/[\w./-]+$/.test(url), messages.validation.url)
    .nullable()
    .optional(),
  games: z
    .array(
      z
        .object({
          slug: singleLineText(GAME_SLUG_MAX, { required: false }).optional(),
          rank: singleLineText(GAME_RANK_MAX, { required: false }).optional(),
        })
        .optional(),
    )
    .optional()
    .transform((games) =>
      (games ?? [])
        .filter((game): game is { slug: string; rank?: string } => !!game?.slug)
        .map((game) => ({ slug: game.slug, rank: game.rank ?? "" })),
    )
    .refine((games) => games.length <= PROFILE_GAMES_MAX, messages.validation.tooMany(PROFILE_GAMES_MAX))
    .refine((games) => new Set(games.map((game) => game.slug)).size === games.length, messages.validation.checkInput),
});
export type ProfileInput = z.infer<typeof profileSchema>;
