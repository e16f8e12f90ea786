import { RegionsAdmin } from "@/app/components/reference/regions-admin";

export default function ReferenceRegionsAdminPage() {
  return <RegionsAdmin />;
}
