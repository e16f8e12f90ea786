import { AuditLogView } from "@/app/components/admin/audit-log";

export default function AuditPage() {
  return <AuditLogView />;
}
