import { RequireRoles } from "@/app/components/guard";
import { BalancesPage } from "@/app/components/balances/balances-page";

export default function BalancesRoute() {
  return (
    <RequireRoles roles={["ACCOUNTANT", "ADMIN"]}>
      <BalancesPage />
    </RequireRoles>
  );
}
