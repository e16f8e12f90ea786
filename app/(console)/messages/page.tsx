import { RequireRoles } from "@/app/components/guard";
import { MessagesPage } from "@/app/components/messages/messages-page";

export default function DriverMessagesPage() {
  return (
    <RequireRoles roles={["DISPATCHER"]}>
      <MessagesPage />
    </RequireRoles>
  );
}
