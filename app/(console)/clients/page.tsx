import { RequireRoles } from "@/app/components/guard";
import { ClientCardPage } from "@/app/components/clients/client-card";

export default function ClientsPage() {
  return (
    <RequireRoles roles={["DISPATCHER"]}>
      <ClientCardPage />
    </RequireRoles>
  );
}
