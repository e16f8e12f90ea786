// The next part of the console (not built yet): a clear notice, not a broken page.
import { ComingSoon, RequireRoles } from "@/app/components/guard";

export default function MapPage() {
  return (
    <RequireRoles roles={["DISPATCHER"]}>
      <ComingSoon title={(t) => t.nav.map} />
    </RequireRoles>
  );
}
