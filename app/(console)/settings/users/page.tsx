import { UsersAdmin } from "@/app/components/admin/users-admin";

export default function UsersPage() {
  return <UsersAdmin />;
}
