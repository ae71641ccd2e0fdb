import type { ReactNode } from "react";
import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CoinPackageList } from "~/components/coin-package-list";
import { pageMeta } from "~/lib/meta";

export const meta: MetaFunction = () =>
  pageMeta(
    "特定商取引法に基づく表記",
    "GamerMatchコインの販売に関する特定商取引法に基づく表記と、資金決済法に基づく前払式支払手段の表示です。",
  );

const DISCLOSED_ON_REQUEST = "請求があった場合には遅滞なく開示します";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{children}</td>
    </tr>
  );
}

export default function TransactionActPage() {
  return (
    <div className="prose-ja">
      <h1 className="mb-6 text-2xl font-bold">特定商取引法に基づく表記</h1>
      <p>GamerMatchで販売するコインについて、特定商取引に関する法律に基づき次のとおり表示します。</p>

      <table>
        <caption className="sr-only">特定商取引法に基づく表記</caption>
        <tbody>
          <Row label="販売事業者">{DISCLOSED_ON_REQUEST}</Row>
          <Row label="運営統括責任者">{DISCLOSED_ON_REQUEST}</Row>
          <Row label="所在地">{DISCLOSED_ON_REQUEST}</Row>
          <Row label="電話番号">{DISCLOSED_ON_REQUEST}</Row>
          <Row label="お問い合わせ">
            <Link to="/inquiry">お問い合わせフォーム</Link>からご連絡ください。
          </Row>
          <Row label="販売価格">
            <p className="my-0">コイン購入画面および購入確認画面に表示します。</p>
            <CoinPackageList taxNote />
          </Row>
          <Row label="商品代金以外の必要料金">
            なし（本サービスを利用するためのインターネット接続料金・通信料はお客様のご負担となります）
          </Row>
          <Row label="支払方法">クレジットカード（Stripe）</Row>
          <Row label="支払時期">購入手続き完了時にお支払いが確定します。</Row>
          <Row label="引渡時期">決済完了後ただちにお客様のアカウントに付与します。</Row>
          <Row label="返品・キャンセル">
            デジタルコンテンツの性質上、購入後の返品・返金はできません。ただし、法令に定める場合はこの限りではありません。
          </Row>
          <Row label="動作環境">
            インターネットに接続された端末の、最新版のGoogle Chrome、Microsoft Edge、Safari、Firefoxでご利用ください。
          </Row>
        </tbody>
      </table>

      <h2>資金決済法に基づく表示</h2>
      <p>GamerMatchコインは、資金決済に関する法律に定める前払式支払手段です。同法に基づき次のとおり表示します。</p>

      <table>
        <caption className="sr-only">資金決済法に基づく表示（前払式支払手段）</caption>
        <tbody>
          <Row label="名称">GamerMatchコイン</Row>
          <Row label="発行者">GamerMatch運営事務局</Row>
          <Row label="支払可能金額等">
            <p className="my-0">1コイン＝1円相当。次のパッケージで販売します。</p>
            <CoinPackageList taxNote />
          </Row>
          <Row label="有効期間">期限なし</Row>
          <Row label="残高の確認方法">ログイン後、「設定 &gt; コイン履歴」の画面でご確認いただけます。</Row>
          <Row label="お問い合わせ先">
            <Link to="/inquiry">お問い合わせフォーム</Link>からご連絡ください。
          </Row>
          <Row label="使用できる場所">GamerMatch内でのチケットの購入、チップ、サブスクリプションの支払い</Row>
          <Row label="利用上の注意">
            <ul className="my-0">
              <li>購入したコインは、法令に定める場合を除き払い戻しできません。</li>
              <li>コインを他人に譲渡・貸与・売買することはできません。</li>
              <li>コインはGamerMatch以外のサービスでは利用できません。</li>
              <li>
                不正な方法による取得・利用が判明した場合や利用規約に違反した場合は、コインの利用を停止することがあります。
              </li>
              <li>未成年の方は、保護者の同意を得てから購入してください。</li>
            </ul>
          </Row>
          <Row label="未使用残高の払戻し">法令に定める場合を除き、払戻しは行いません。</Row>
          <Row label="利用規約">
            <Link to="/terms">利用規約</Link>をご確認ください。
          </Row>
        </tbody>
      </table>
    </div>
  );
}
