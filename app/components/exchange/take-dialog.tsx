"use client";

// Taking an offer for one of our drivers.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { Modal } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import type { LinkRow } from "./common";
import { route } from "./links-table";

export function TakeDialog({ link, onClose }: { link: LinkRow; onClose: () => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [driverId, setDriverId] = useState<number | "">("");
  const [arrival, setArrival] = useState("");
  const [error, setError] = useState<string | null>(null);
  const drivers = useQuery(trpc.reference.assignableDrivers.queryOptions({}));
  const take = useMutation(
    trpc.exchangeDesk.take.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (r) => {
        toast.success(t.exchangeDesk.taken(r.orderId));
        void queryClient.invalidateQueries({ queryKey: trpc.exchangeDesk.pathKey() });
        onClose();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const submit = () => {
    setError(null);
    if (driverId === "" || !link.exchangeOrderId) return setError(t.order.driverRequired);
    take.mutate({ exchangeOrderId: link.exchangeOrderId, driverId, arrivalMinutes: arrival.trim() ? Number(arrival) : undefined });
  };
  return (
    <Modal
      title={t.exchangeDesk.takeTitle(link.exchangeOrderId ?? "")}
      onClose={onClose}
      width={520}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t.common.cancel}
          </button>
          <button type="button" className="btn btn-primary" onClick={submit} disabled={take.isPending}>
            {t.exchangeDesk.take}
          </button>
        </>
      }
    >
      <div className="muted">{route(link.order)}</div>
      <label className="field">
        <span>{t.order.assignDriver}</span>
        <select name="driverId" value={driverId} onChange={(e) => setDriverId(e.target.value ? Number(e.target.value) : "")}>
          <option value="">{t.order.chooseDriver}</option>
          {drivers.data?.map((d) => (
            <option key={d.id} value={d.id}>
              {d.callSign} · {d.lastName} {d.firstName} · {t.drivers.states[d.state]}
              {d.car ? ` · ${d.car.brand} ${d.car.model} ${d.car.regNumber}` : ""}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t.exchangeDesk.arrival}</span>
        <input name="arrival" inputMode="numeric" value={arrival} placeholder={t.exchangeDesk.arrivalHint} onChange={(e) => setArrival(e.target.value)} />
      </label>
      {error ? (
        <div className="notice notice-error" role="alert">
          {error}
        </div>
      ) : null}
    </Modal>
  );
}
