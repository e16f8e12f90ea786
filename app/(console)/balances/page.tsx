// The next part of the console (not built yet): a clear notice, not a broken page.
import { ComingSoon, RequireRoles } from "@/app/components/guard";

export default function BalancesPage() {
  return (
    <RequireRoles roles={["ACCOUNTANT"]}>
      <ComingSoon title={(t) => t.nav.balances} />
    </RequireRoles>
  );
}
