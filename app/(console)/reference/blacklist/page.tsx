import { BlacklistAdmin } from "@/app/components/reference/blacklist-admin";

export default function ReferenceBlacklistAdminPage() {
  return <BlacklistAdmin />;
}
