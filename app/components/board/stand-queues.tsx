"use client";
// The parking queues managed from the console (issue 34): every stand (a
// parking region) with its queue; a call sign and Enter puts a driver on the
// stand, "↑"/"↓" move a driver in the queue, the stand list moves one to
// another stand, "✕" takes one off. The server decides (dispatch.queuePut,
// dispatch.queueRemove: the driver app's own rules, under row locks, audited)
// and says why a driver may not stand, in the console's language.
import { Fragment, useEffect, useRef, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { errorInfo } from "../errors";
import { toast } from "../toast";
import { Modal } from "../ui";

export interface StandQueue {
  regionId: number;
  drivers: Array<{ driverId: number; callSign: string; position: number }>;
}

export function StandQueuesDialog({ stands, queues, regionName, focusDriver, onClose }: {
  stands: Array<{ id: number; cityId: number; cityName: string }>;
  queues: StandQueue[];
  regionName: (id: number) => string;
  focusDriver: number | null;
  onClose: () => void;
}) {
  const { t } = useI18n();
  const q = t.shift.queueAdmin;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState<Record<number, string>>({});
  const [errors, setErrors] = useState<Record<number, string>>({});
  const [target, setTarget] = useState<Record<number, string>>({});
  const arrowed = useRef(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.dispatch.queues.queryKey() });
  const put = useMutation(trpc.dispatch.queuePut.mutationOptions({ meta: { inlineError: true } }));
  const remove = useMutation(trpc.dispatch.queueRemove.mutationOptions({ meta: { inlineError: true } }));
  const pending = put.isPending || remove.isPending;

  const submit = (regionId: number, input: { callSign?: string; driverId?: number; position?: number }, afterOk?: () => void) => {
    put.mutate(
      { regionId, ...input },
      {
        onSuccess: (res) => {
          setErrors((e) => ({ ...e, [regionId]: "" }));
          afterOk?.();
          toast.success(q.placed(res.callSign, regionName(res.regionId), res.position));
          // A moved row may take the focus with it: the keyboard stays in the dialog, on the new stand's field.
          void refresh().then(() => {
            if (!listRef.current?.contains(document.activeElement)) document.getElementById(`stand-input-${res.regionId}`)?.focus();
          });
        },
        onError: (e) => setErrors((all) => ({ ...all, [regionId]: errorInfo(e, t).message })),
      },
    );
  };
  const listRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // After the dialog's own focus on its first field: a driver's chip opens the dialog on that driver.
    const timer = setTimeout(() => listRef.current?.querySelector<HTMLElement>("[data-focus]")?.closest("li")?.querySelector<HTMLElement>("button:not(:disabled), select")?.focus(), 0);
    return () => clearTimeout(timer);
  }, []);
  const manyCities = new Set(stands.map((s) => s.cityId)).size > 1;
  const byRegion = new Map(queues.map((x) => [x.regionId, x.drivers]));

  return (
    <Modal title={q.title} onClose={onClose} width={640}>
      <div className="stand-list" data-testid="stand-queues" ref={listRef}>
        {stands.map(({ id: regionId, cityId, cityName }, i) => {
          const drivers = byRegion.get(regionId) ?? [];
          // A city's heading when the stands are of several cities.
          const heading = manyCities && stands[i - 1]?.cityId !== cityId ? <h3 className="stand-city">{cityName}</h3> : null;
          const errorId = `stand-error-${regionId}`;
          const name = regionName(regionId);
          return (
            <Fragment key={regionId}>
            {heading}
            <section className="stand" data-region={regionId} data-city={cityId} aria-label={t.shift.fleet.queueOf(name, drivers.length)}>
              <h4 className="stand-name">{name}</h4>
              <form className="stand-put" onSubmit={(e) => {
                e.preventDefault();
                const callSign = (typed[regionId] ?? "").trim();
                if (!callSign) return setErrors((all) => ({ ...all, [regionId]: q.callSignRequired }));
                submit(regionId, { callSign }, () => setTyped((all) => ({ ...all, [regionId]: "" })));
              }}>
                <input name="callSign" id={`stand-input-${regionId}`} className="mono" autoComplete="off" spellCheck={false} placeholder={q.placeholder}
                  aria-label={q.putLabel(name)} value={typed[regionId] ?? ""} aria-invalid={errors[regionId] ? true : undefined}
                  aria-describedby={errors[regionId] ? errorId : undefined}
                  onChange={(e) => {
                    setTyped((all) => ({ ...all, [regionId]: e.target.value }));
                    setErrors((all) => ({ ...all, [regionId]: "" }));
                  }} />
                {errors[regionId] ? <div className="field-error" role="alert" id={errorId}>{errors[regionId]}</div> : null}
              </form>
              <ol className="stand-drivers">
                {drivers.map((d, i) => (
                  <li key={d.driverId} className="stand-driver" data-call-sign={d.callSign}>
                    <span className="mono stand-sign">{d.position}. {d.callSign}</span>
                    <button type="button" className="btn btn-small" disabled={pending || i === 0} aria-label={q.up(d.callSign)} data-focus={focusDriver === d.driverId ? "" : undefined}
                      onClick={() => submit(regionId, { driverId: d.driverId, position: d.position - 1 })}>↑</button>
                    <button type="button" className="btn btn-small" disabled={pending || i === drivers.length - 1} aria-label={q.down(d.callSign)}
                      onClick={() => submit(regionId, { driverId: d.driverId, position: d.position + 1 })}>↓</button>
                    <select aria-label={q.moveTo(d.callSign)} value={target[d.driverId] ?? ""} disabled={pending}
                      // An arrow key changes a closed list at once: by keyboard the stand is chosen, then Enter moves
                      // the driver; a pick with the mouse moves at once.
                      onMouseDown={() => {
                        arrowed.current = false;
                      }}
                      onKeyDown={(e) => {
                        arrowed.current = e.key.startsWith("Arrow") || e.key === "Home" || e.key === "End";
                        const to = target[d.driverId];
                        if (e.key === "Enter" && to) {
                          e.preventDefault();
                          setTarget((all) => ({ ...all, [d.driverId]: "" }));
                          submit(Number(to), { driverId: d.driverId });
                        }
                      }}
                      onChange={(e) => {
                        const to = e.target.value;
                        if (arrowed.current) return setTarget((all) => ({ ...all, [d.driverId]: to }));
                        if (to) submit(Number(to), { driverId: d.driverId });
                      }}>
                      <option value="">{q.toStand}</option>
                      {stands.filter((s) => s.id !== regionId && s.cityId === cityId).map((s) => <option key={s.id} value={s.id}>{regionName(s.id)}</option>)}
                    </select>
                    <button type="button" className="btn btn-small btn-danger" disabled={pending} aria-label={q.remove(d.callSign)}
                      onClick={() => remove.mutate({ driverId: d.driverId }, {
                        onSuccess: () => {
                          toast.success(q.removed(d.callSign));
                          // The row (and its focused button) goes: the keyboard stays in the dialog, on the stand's field.
                          document.getElementById(`stand-input-${regionId}`)?.focus();
                          void refresh();
                        },
                      })}>✕</button>
                  </li>
                ))}
              </ol>
            </section>
            </Fragment>
          );
        })}
      </div>
    </Modal>
  );
}
