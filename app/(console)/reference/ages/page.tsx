import { AgeLimitsAdmin } from "@/app/components/board/age-limits-admin";

export default function ReferenceAgesPage() {
  return <AgeLimitsAdmin />;
}
