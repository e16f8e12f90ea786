"use client";
// The order card's status change, safe and fast (issue 34): the dispatcher
// types a state's code and Enter (the two 95s told apart by a letter: 95к /
// 95c the client refused, 95д / 95d the dispatcher's decision), or picks it
// from the list. A final move (codes 90..100) asks for confirmation with a
// required reason; the server requires it too (server/console/status-move.ts)
// and offers "completed" only for an order a driver holds.
import { useRef, useState } from "react";
import { codeOf, isDone, isOrderState, type OrderState } from "@/shared/orders/states";
import { DISPATCHER_ASSIGNING_TARGETS } from "@/shared/orders/state-groups";
import { useI18n } from "../i18n";
import { Modal } from "../ui";
import { DriverSelect, useLivenessGate, type PickedDriver } from "./driver-picker";
import { useOrderActions } from "./use-order-actions";
import type { OrderDetails } from "./types";

/** The letters that tell the 95s apart, in both keyboard layouts. */
const SUFFIX_95: Record<string, OrderState> = { к: "DONE_CANCELLED", c: "DONE_CANCELLED", с: "DONE_CANCELLED", д: "DONE_OPERATOR_REJECTED", d: "DONE_OPERATOR_REJECTED" };

/** The target a typed code names among `targets`: a state, "ambiguous" or "unknown". */
export function targetOfCode(typed: string, targets: readonly OrderState[]): OrderState | "ambiguous" | "unknown" {
  const m = /^(\d{1,3}) ?([a-zа-яё]?)$/i.exec(typed.trim());
  if (!m) return "unknown";
  const matches = targets.filter((s) => codeOf(s) === Number(m[1]));
  const letter = m[2]?.toLowerCase() ?? "";
  if (letter) {
    const named = SUFFIX_95[letter];
    return named && matches.includes(named) ? named : "unknown";
  }
  if (matches.length === 1) return matches[0]!;
  return matches.length > 1 ? "ambiguous" : "unknown";
}

export function StatusChange({ order }: { order: OrderDetails }) {
  const { t, stateTitle } = useI18n();
  const { move } = useOrderActions();
  const [code, setCode] = useState("");
  const [to, setTo] = useState<OrderState | "">("");
  const [reason, setReason] = useState("");
  const [driver, setDriver] = useState<PickedDriver | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<OrderState | null>(null);
  const gate = useLivenessGate(driver);
  const formRef = useRef<HTMLFormElement>(null);
  const targets = order.nextStates.filter(isOrderState);
  const label = (s: OrderState) => `${codeOf(s)}${t.shift.code95[s] ?? ""} · ${t.shift.label95[s] ?? stateTitle(s)}`;
  const wantsDriver = (s: OrderState | "") => s !== "" && DISPATCHER_ASSIGNING_TARGETS.includes(s);

  const send = (target: OrderState, why: string) =>
    move.mutate({
      orderId: order.id,
      to: target,
      expectedVersion: order.version,
      reason: why.trim() || undefined,
      driverId: wantsDriver(target) ? (driver?.id ?? undefined) : undefined,
    });

  const submit = (target: OrderState | "" = to) => {
    if (!target) return setError(t.order.chooseTarget);
    if (wantsDriver(target) && !driver && !order.driver) {
      setError(t.order.driverRequired);
      formRef.current?.querySelector<HTMLInputElement>(".status-driver input")?.focus();
      return;
    }
    // A driver automatic dispatch passes over (silent, away): asked once more before giving.
    if (wantsDriver(target) && driver && !gate.pass()) return;
    if (isDone(target)) return setConfirming(target);
    send(target, reason);
  };

  const onCodeKey = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    const found = targetOfCode(code, targets);
    if (found === "unknown") return setError(t.shift.codeUnknown(code.trim()));
    if (found === "ambiguous") return setError(t.shift.codeAmbiguous);
    setTo(found);
    setError(null);
    if (wantsDriver(found) && !driver && !order.driver) {
      // The driver's field appears with the target: the dispatcher types the call sign next.
      setTimeout(() => formRef.current?.querySelector<HTMLInputElement>(".status-driver input")?.focus(), 0);
      return;
    }
    submit(found);
  };

  return (
    <section className="card" aria-label={t.order.changeStatus}>
      <h3>{t.order.changeStatus}</h3>
      {targets.length === 0 ? (
        <div className="muted">{t.order.noMoves}</div>
      ) : (
        <form
          ref={formRef}
          className="status-form"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <div className="status-code-row">
            <label className="field status-code">
              <span>{t.shift.code}</span>
              <input
                name="code"
                value={code}
                inputMode="numeric"
                autoComplete="off"
                placeholder="95д"
                aria-label={t.shift.codeHint}
                title={t.shift.codeHint}
                onChange={(e) => {
                  setCode(e.target.value);
                  setError(null);
                }}
                onKeyDown={onCodeKey}
              />
            </label>
            <label className="field status-target">
              <span>{t.order.target}</span>
              <select
                name="to"
                value={to}
                onChange={(e) => {
                  setTo(e.target.value as OrderState | "");
                  setError(null);
                }}
              >
                <option value="">{t.order.chooseTarget}</option>
                {targets.map((s) => (
                  <option key={s} value={s}>
                    {label(s)}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {wantsDriver(to) ? (
            <div className="status-driver">
              <DriverSelect serviceId={order.service.id} value={driver} onChange={setDriver} label={t.order.assignDriver} asking={gate.asking} />
            </div>
          ) : null}
          {to !== "" && !isDone(to) ? (
            <label className="field">
              <span>{t.order.reason}</span>
              <input name="reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
            </label>
          ) : null}
          {error ? (
            <div className="field-error" role="alert">
              {error}
            </div>
          ) : null}
          <div className="row-actions">
            <button type="submit" className="btn btn-primary" disabled={move.isPending}>
              {t.common.apply}
            </button>
          </div>
        </form>
      )}
      {confirming ? (
        <ConfirmFinal
          orderId={order.id}
          target={confirming}
          label={label(confirming)}
          initialReason={reason}
          onClose={() => setConfirming(null)}
          onConfirm={(why) => {
            setConfirming(null);
            send(confirming, why);
          }}
        />
      ) : null}
    </section>
  );
}

function ConfirmFinal({
  orderId,
  label,
  initialReason,
  onClose,
  onConfirm,
}: {
  orderId: number;
  target: OrderState;
  label: string;
  initialReason: string;
  onClose: () => void;
  onConfirm: (reason: string) => void;
}) {
  const { t } = useI18n();
  const [why, setWhy] = useState(initialReason);
  const [missing, setMissing] = useState(false);
  const confirm = () => {
    if (why.trim().length < 3) return setMissing(true);
    onConfirm(why.trim());
  };
  return (
    <Modal
      title={t.shift.confirmTitle(orderId)}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t.common.cancel}
          </button>
          <button type="button" className="btn btn-danger" onClick={confirm}>
            {t.shift.confirm}
          </button>
        </>
      }
    >
      <label className="field">
        <span>{t.shift.confirmReason}</span>
        <textarea
          name="final-reason"
          rows={3}
          value={why}
          maxLength={500}
          aria-invalid={missing}
          aria-describedby="final-move-text"
          onChange={(e) => {
            setWhy(e.target.value);
            setMissing(false);
          }}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              confirm();
            }
          }}
        />
      </label>
      <p id="final-move-text" className="muted">
        {t.shift.confirmText(label)}
      </p>
      {missing ? (
        <div className="field-error" role="alert">
          {t.shift.confirmReasonMissing}
        </div>
      ) : null}
    </Modal>
  );
}
