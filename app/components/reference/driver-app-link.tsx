"use client";
// The activation link of the driver's app for a newly issued key, as text and
// as a QR code (the `qrcode` package, drawn to a data: URL the page's content
// security policy allows) for the driver to scan. The key travels in the
// fragment (#key=...), which browsers never send to a server.
import { useEffect, useState } from "react";
import QRCode from "qrcode";
import { useI18n } from "@/app/components/i18n";
import { toast } from "@/app/components/toast";
import { driverAppLinkStrings } from "@/shared/i18n/console/driver-app-link";

export function DriverAppLink({ callSign, appKey }: { callSign: string; appKey: string }) {
  const { locale, t: common } = useI18n();
  const t = driverAppLinkStrings[locale];
  const link = `${window.location.origin}/driver/activate#key=${encodeURIComponent(appKey)}`;
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(link, { errorCorrectionLevel: "M", margin: 2, width: 240 }).then(
      (url) => live && setQr(url),
      () => live && setQr(null),
    );
    return () => {
      live = false;
    };
  }, [link]);
  return (
    <div className="driver-app-link" data-testid="driver-app-link">
      <h3>{t.title}</h3>
      <p className="muted small">{t.hint}</p>
      <div className="secret">
        <code data-testid="driver-app-link-url">{link}</code>
        <button type="button" className="btn btn-small" onClick={() => void navigator.clipboard?.writeText(link).then(() => toast.success(common.common.copied))}>
          {t.copy}
        </button>
      </div>
      {/* A data: URL made here: nothing for next/image to optimise. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      {qr ? <img src={qr} width={240} height={240} alt={t.qr(callSign)} data-testid="driver-app-qr" /> : null}
    </div>
  );
}
