import { RequireRoles } from "@/app/components/guard";
import { DriversTable } from "@/app/components/drivers/drivers-table";

export default function DriversPage() {
  return (
    <RequireRoles roles={["DISPATCHER", "MANAGER"]}>
      <DriversTable />
    </RequireRoles>
  );
}
