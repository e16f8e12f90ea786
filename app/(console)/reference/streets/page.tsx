import { StreetsAdmin } from "@/app/components/reference/streets-admin";

export default function ReferenceStreetsAdminPage() {
  return <StreetsAdmin />;
}
