// The next part of the console (not built yet): a clear notice, not a broken page.
import { ComingSoon, RequireRoles } from "@/app/components/guard";

export default function ReferencePage() {
  return (
    <RequireRoles roles={["ADMIN"]}>
      <ComingSoon title={(t) => t.nav.reference} />
    </RequireRoles>
  );
}
