import { ServicesAdmin } from "@/app/components/reference/services-admin";

export default function ReferenceServicesAdminPage() {
  return <ServicesAdmin />;
}
