"use client";
// Dialogs of moderation: reject with a reason, approve straight to a driver.
import { useState } from "react";
import { Modal } from "../ui";
import { useI18n } from "../i18n";
import { DriverSelect, useLivenessGate, type PickedDriver } from "./driver-picker";
import { useOrderActions } from "./use-order-actions";

export interface ModerationTarget {
  id: number;
  version: number;
  serviceId?: number;
}

export function RejectDialog({ order, onClose, onDone }: { order: ModerationTarget; onClose: () => void; onDone?: () => void }) {
  const { t } = useI18n();
  const { reject } = useOrderActions();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (!reason.trim()) return setError(t.moderation.reasonRequired);
    reject.mutate({ orderId: order.id, expectedVersion: order.version, reason: reason.trim() });
    onClose();
    onDone?.();
  };
  return (
    <Modal
      title={t.moderation.rejectTitle(order.id)}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t.common.cancel}
          </button>
          <button type="button" className="btn btn-danger" onClick={submit}>
            {t.moderation.reject}
          </button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <label className="field">
          <span>{t.moderation.reason}</span>
          <input
            name="reason"
            value={reason}
            placeholder={t.moderation.reasonPlaceholder}
            onChange={(e) => {
              setReason(e.target.value);
              setError(null);
            }}
            aria-invalid={error ? true : undefined}
          />
        </label>
        {error ? <div className="field-error" role="alert">{error}</div> : null}
      </form>
    </Modal>
  );
}

export function ApproveToDriverDialog({ order, onClose, onDone }: { order: ModerationTarget; onClose: () => void; onDone?: () => void }) {
  const { t } = useI18n();
  const { approve } = useOrderActions();
  const [driver, setDriver] = useState<PickedDriver | null>(null);
  const [error, setError] = useState<string | null>(null);
  const gate = useLivenessGate(driver);
  const submit = () => {
    if (!driver) return setError(t.order.driverRequired);
    if (!gate.pass()) return;
    approve.mutate({ orderId: order.id, expectedVersion: order.version, driverId: driver.id });
    onClose();
    onDone?.();
  };
  return (
    <Modal
      title={`${t.order.title(order.id)} — ${t.moderation.toDriver.replace("…", "")}`}
      onClose={onClose}
      width={520}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t.common.cancel}
          </button>
          <button type="button" className="btn btn-primary" onClick={submit}>
            {t.moderation.approve}
          </button>
        </>
      }
    >
      <div
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            submit();
          }
        }}
      >
        <DriverSelect serviceId={order.serviceId} value={driver} onChange={(d) => (setDriver(d), setError(null))} label={t.order.assignDriver} autoFocus asking={gate.asking} />
        {error ? <div className="field-error" role="alert">{error}</div> : null}
      </div>
    </Modal>
  );
}
