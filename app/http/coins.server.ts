/** Where Stripe Checkout sends the buyer back: the order's result page, or the checkout page on cancel. */
export function coinUrls(request: Request, packageId: number) {
  const origin = new URL(request.url).origin;
  return { success: (orderId: number) => `${origin}/coins/orders/${orderId}`, cancel: `${origin}/coins/checkout/${packageId}` };
}
