import { RoadsAdmin } from "@/app/components/admin/roads-admin";

export default function RoadsPage() {
  return <RoadsAdmin />;
}
