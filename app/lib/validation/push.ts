import { z } from "zod";
import { PUSH_KINDS } from "../constants/push";
import { messages } from "../messages";

const invalid = { message: messages.push.invalidSubscription };
/** Unpadded (or padded) URL-safe base64, as `PushSubscription.toJSON()` gives its keys. */
const base64url = (min: number, max: number) => z.string().min(min, invalid).max(max, invalid).regex(/^[A-Za-z0-9_-]+={0,2}$/, invalid);

/**
 * A browser's push subscription, as `PushSubscription.toJSON()` gives it (POST /api/push/subscriptions): the push
 * service's endpoint and the device's keys, a P-256 public key (65 bytes) and a 16-byte secret. `expirationTime` is
 * read and ignored (no browser sets it today).
 */
export const pushSubscriptionSchema = z.object({
  endpoint: z.string().url(invalid).max(2048, invalid).refine((url) => /^https?:\/\//.test(url), invalid),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url(86, 88), auth: base64url(22, 24) }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

/** DELETE /api/push/subscriptions: this device's subscription, by its endpoint (the page's 「この端末への通知をやめる」). */
export const pushEndpointSchema = z.object({ endpoint: z.string().url(invalid).max(2048, invalid) });

/** `/settings/notifications`' push form: the kinds left checked (one checkbox `pushKinds` per kind; none when all are clear). */
export const pushPreferencesSchema = z.object({
  pushKinds: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z.array(z.enum(PUSH_KINDS, { errorMap: () => ({ message: messages.validation.checkInput }) }), { invalid_type_error: messages.validation.checkInput }),
  ),
});

/** `/settings/notifications`' 「解除」 of one device (a plain form). */
export const removePushDeviceSchema = z.object({ deviceId: z.coerce.number().int().positive() });

/** `chat:focus` over the socket: the room the tab shows while focused, or null. */
export const roomFocusSchema = z.object({ roomId: z.string().uuid().nullable() });
