import { RequireRoles } from "@/app/components/guard";
import { ExchangeDesk } from "@/app/components/exchange/exchange-desk";

export default function ExchangeDeskPage() {
  return (
    <RequireRoles roles={["EXCHANGE_OPERATOR", "DISPATCHER"]}>
      <ExchangeDesk />
    </RequireRoles>
  );
}
