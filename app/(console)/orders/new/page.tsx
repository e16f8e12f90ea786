import { RequireRoles } from "@/app/components/guard";
import { PhoneOrderForm } from "@/app/components/new-order/phone-order-form";

export default function NewOrderPage() {
  return (
    <RequireRoles roles={["DISPATCHER"]}>
      <PhoneOrderForm />
    </RequireRoles>
  );
}
