import { ExtrasAdmin } from "@/app/components/reference/extras-admin";

export default function ReferenceExtrasAdminPage() {
  return <ExtrasAdmin />;
}
