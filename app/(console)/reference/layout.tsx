// Reference data (administrators): tabs for services, regions, rates,
// extras, streets, drivers and the phone blacklist.
import type { ReactNode } from "react";
import { RequireRoles } from "@/app/components/guard";
import { ReferenceTabs } from "@/app/components/reference/reference-tabs";

export default function ReferenceLayout({ children }: { children: ReactNode }) {
  return (
    <RequireRoles roles={["ADMIN"]}>
      <div className="page ref-page">
        <ReferenceTabs />
        {children}
      </div>
    </RequireRoles>
  );
}
