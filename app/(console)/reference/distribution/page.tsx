import { DistributionAdmin } from "@/app/components/dispatch/distribution-admin";

export default function ReferenceDistributionPage() {
  return <DistributionAdmin />;
}
