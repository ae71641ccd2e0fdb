import Stripe from "stripe";
import type { AppConfig } from "./config";

/**
 * How coins are paid for (docs/product.md#runtime, #coins). With no Stripe keys the built-in test provider ("テスト決済") pays an
 * order the moment it is submitted; with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET the official client opens a
 * Checkout Session and only the signed `checkout.session.completed` webhook credits coins.
 */
export interface CheckoutRequest {
  orderId: number;
  userId: string;
  packageName: string;
  priceJpy: number;
  successUrl: string;
  cancelUrl: string;
}

export type Payments =
  | { provider: "test" }
  | {
      provider: "stripe";
      /** A Checkout Session for the order; asking again for the same order answers the same session. */
      createCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }>;
      /** The event of a webhook, verified against its Stripe-Signature header; throws when it does not verify. */
      verifyWebhook(rawBody: string, signature: string): Stripe.Event;
    };

export function createPayments(config: AppConfig): Payments {
  if (!config.STRIPE_SECRET_KEY || !config.STRIPE_WEBHOOK_SECRET) return { provider: "test" };
  const api = config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : undefined;
  const stripe = new Stripe(config.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    ...(api ? { host: api.hostname, port: api.port || (api.protocol === "https:" ? 443 : 80), protocol: api.protocol === "https:" ? "https" : "http" } : {}),
  });
  const webhookSecret = config.STRIPE_WEBHOOK_SECRET;
  return {
    provider: "stripe",
    async createCheckout({ orderId, userId, packageName, priceJpy, successUrl, cancelUrl }) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [{ quantity: 1, price_data: { currency: "jpy", unit_amount: priceJpy, product_data: { name: packageName } } }],
          success_url: successUrl,
          cancel_url: cancelUrl,
          client_reference_id: String(orderId),
          metadata: { orderId: String(orderId), userId },
          locale: "ja",
        },
        // Two requests for one order (a retry, a double click) get the one session.
        { idempotencyKey: `gamermatch-coin-order-${orderId}` },
      );
      if (!session.url) throw new Error(`Stripe returned no URL for Checkout Session ${session.id}`);
      return { sessionId: session.id, url: session.url };
    },
    verifyWebhook(rawBody, signature) {
      return stripe.webhooks.constructEvent(rawBody, signature, webhookSecret);
    },
  };
}
