// The next part of the console (not built yet): a clear notice, not a broken page.
import { ComingSoon, RequireRoles } from "@/app/components/guard";

export default function ExchangePage() {
  return (
    <RequireRoles roles={["EXCHANGE_OPERATOR"]}>
      <ComingSoon title={(t) => t.nav.exchange} />
    </RequireRoles>
  );
}
