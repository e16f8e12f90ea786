import { ApiKeysAdmin } from "@/app/components/admin/api-keys-admin";

export default function ApiKeysPage() {
  return <ApiKeysAdmin />;
}
