// Settings: tabs for users, API keys and the audit log (administrators).
import type { ReactNode } from "react";
import { RequireRoles } from "@/app/components/guard";
import { SettingsTabs } from "@/app/components/admin/settings-tabs";

export default function SettingsLayout({ children }: { children: ReactNode }) {
  return (
    <RequireRoles roles={["ADMIN"]}>
      <div className="page">
        <SettingsTabs />
        {children}
      </div>
    </RequireRoles>
  );
}
