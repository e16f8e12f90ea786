import { RatesAdmin } from "@/app/components/reference/rates-admin";

export default function ReferenceRatesAdminPage() {
  return <RatesAdmin />;
}
