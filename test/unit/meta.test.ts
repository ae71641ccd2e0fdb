import { expect, it } from "vitest";
import { pageMeta, pageTitle } from "~/lib/meta";

it("builds the title format of docs/product.md#what-it-is", () => {
  expect(pageTitle("ホーム")).toBe("ホーム - GamerMatch - ゲーマーマッチングプラットフォーム");
});

it("puts the title and description into the meta tags", () => {
  expect(pageMeta("利用規約", "説明")).toEqual([
    { title: "利用規約 - GamerMatch - ゲーマーマッチングプラットフォーム" },
    { property: "og:title", content: "利用規約 - GamerMatch - ゲーマーマッチングプラットフォーム" },
    { name: "description", content: "説明" },
    { property: "og:description", content: "説明" },
  ]);
  expect(pageMeta("サポート")).toHaveLength(2);
});
