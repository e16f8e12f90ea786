import { RequireRoles } from "@/app/components/guard";
import { OrderBoard } from "@/app/components/board/order-board";

export default function OrdersPage() {
  return (
    <RequireRoles roles={["DISPATCHER", "MANAGER"]}>
      <OrderBoard />
    </RequireRoles>
  );
}
