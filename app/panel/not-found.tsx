// A page the panel has not, or an order that is not the participant's.
import Link from "next/link";
import { panelLocale } from "./session";
import { Empty } from "./ui";

export default async function PanelNotFound() {
  const { t } = await panelLocale();
  return (
    <div className="pn-page">
      <div className="table-wrap empty-large">
        <Empty title={t.notFound.title} text={t.notFound.text} icon="search" />
        <div className="pn-more">
          <Link className="btn" href="/panel">
            {t.notFound.back}
          </Link>
        </div>
      </div>
    </div>
  );
}
