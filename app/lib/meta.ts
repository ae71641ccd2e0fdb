import type { MetaDescriptor } from "@remix-run/node";
import { PRODUCT_NAME, PRODUCT_TAGLINE } from "./constants/site";

/** `{page} - GamerMatch - ゲーマーマッチングプラットフォーム` (docs/product.md#what-it-is, docs/product.md#what-it-is). */
export function pageTitle(page: string) {
  return `${page} - ${PRODUCT_NAME} - ${PRODUCT_TAGLINE}`;
}

/** The meta of a page: its title in the house format and, if given, a description. */
export function pageMeta(page: string, description?: string): MetaDescriptor[] {
  const title = pageTitle(page);
  return [
    { title },
    { property: "og:title", content: title },
    ...(description
      ? [
          { name: "description", content: description },
          { property: "og:description", content: description },
        ]
      : []),
  ];
}
