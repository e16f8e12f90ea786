import { SmsTemplatesAdmin } from "@/app/components/sms/sms-templates-admin";

export default function ReferenceSmsPage() {
  return <SmsTemplatesAdmin />;
}
