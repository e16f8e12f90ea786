"use client";
// The order card's driver field: a call sign and Enter give the order to that
// driver (approved to them on moderation, offered when free). When the driver
// does not fit, the server says why and the field keeps the typing. A driver
// automatic dispatch passes over (away, a stale position, a silent app) is
// asked about first, as in the pickers (liveness-gate.ts): the first Enter
// says why the driver will probably not answer, the second gives all the same.
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { gateStep, livenessReasons, type DriverLivenessFlags } from "./liveness-gate";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { toast } from "../toast";
import { errorInfo } from "../errors";

/** States in which a typed call sign gives the order away (server/console/give-to-driver.ts decides). */
export const GIVABLE_STATES = ["ON_MODERATION", "FREE", "FREE_LONG", "ORDER_ON_RADIO", "PREORDER_FREE"];

export function GiveToDriver({ order, autoFocus }: { order: { id: number; version: number; service?: { id: number } }; autoFocus?: boolean }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [callSign, setCallSign] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  // The driver the question was asked about (gateStep).
  const [armed, setArmed] = useState<number | null>(null);
  const give = useMutation(
    trpc.orders.giveToDriver.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (res) => {
        toast.success(t.give.given(res.orderId, res.callSign));
        setCallSign("");
        setError(null);
        setWarning(null);
        setArmed(null);
        void queryClient.invalidateQueries({ queryKey: trpc.orders.get.queryKey({ id: res.orderId }) });
        void queryClient.invalidateQueries({ queryKey: trpc.dispatch.order.queryKey({ orderId: res.orderId }) });
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const errorId = `give-error-${order.id}`;
  return (
    <form
      className="card give-form"
      data-testid="give-to-driver"
      onSubmit={(e) => {
        e.preventDefault();
        const value = callSign.trim();
        if (!value) return setError(t.order.driverRequired);
        void (async () => {
          // The driver's liveness by the same rules as the pickers' (server/dispatch/liveness.ts); an unknown
          // call sign goes on to the server, which says why it cannot take the order.
          const found = await queryClient
            .fetchQuery({ ...trpc.reference.assignableDrivers.queryOptions({ q: value, ...(order.service ? { serviceId: order.service.id } : {}) }), staleTime: 0 })
            .catch(() => []);
          // Only a free driver with no offer to answer is asked about: for any other the server's refusal (busy, off shift…) says more.
          const driver =
            (found as Array<{ id: number; callSign: string; state: string; offered?: boolean; dispatch?: DriverLivenessFlags }>).find(
              (d) => d.callSign.toLowerCase() === value.toLowerCase() && d.state === "FREE" && !d.offered,
            ) ?? null;
          const step = gateStep(armed, driver);
          setArmed(step.armed);
          if (!step.pass && driver) {
            setWarning(`${t.driverLiveness.pickerWarning(driver.callSign, livenessReasons(driver.dispatch, t.driverLiveness).join(", "))} ${t.driverLiveness.pickerAsk(driver.callSign)}`);
            return;
          }
          setWarning(null);
          give.mutate({ orderId: order.id, expectedVersion: order.version, callSign: value });
        })();
      }}
    >
      <label className="field">
        <span>{t.give.label}</span>
        <input
          name="callSign"
          value={callSign}
          autoFocus={autoFocus}
          autoComplete="off"
          spellCheck={false}
          placeholder={t.give.placeholder}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => {
            setCallSign(e.target.value);
            setError(null);
            setWarning(null);
          }}
          readOnly={give.isPending}
        />
      </label>
      {error ? (
        <div className="field-error" role="alert" id={errorId}>
          {error}
        </div>
      ) : null}
      {warning ? (
        <div className="field-error driver-liveness-warning" role="alert" data-testid="give-liveness-warning">
          {warning}
        </div>
      ) : null}
    </form>
  );
}
