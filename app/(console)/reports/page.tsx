import { RequireRoles } from "@/app/components/guard";
import { ReportsPage } from "@/app/components/reports/reports-page";

export default function ReportsRoute() {
  return (
    <RequireRoles roles={["MANAGER", "ADMIN", "ACCOUNTANT"]}>
      <ReportsPage />
    </RequireRoles>
  );
}
