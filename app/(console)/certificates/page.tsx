import { RequireRoles } from "@/app/components/guard";
import { CertificatesAdmin } from "@/app/components/certificates/certificates-admin";

export default function CertificatesPage() {
  return (
    <RequireRoles roles={["EXCHANGE_OPERATOR"]}>
      <div className="page">
        <CertificatesAdmin />
      </div>
    </RequireRoles>
  );
}
