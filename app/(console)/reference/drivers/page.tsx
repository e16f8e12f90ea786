import { DriversAdmin } from "@/app/components/reference/drivers-admin";

export default function ReferenceDriversAdminPage() {
  return <DriversAdmin />;
}
