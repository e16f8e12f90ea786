"use client";
// One order in a side panel: moderation, a state change among the moves the
// state machine allows, the route, client and driver, an edit form that
// refuses stale saves, and the history of moves.
import { useEffect, useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { isDone, isOrderState } from "@/shared/orders/states";
import { parseRoubles } from "@/shared/money";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { Icon } from "../icons";
import { ErrorNotice, StateBadge } from "../ui";
import Link from "next/link";
import { CallButton, CallLog } from "../phone/phone";
import { clientCardHref } from "../clients/href";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import { ApproveToDriverDialog, RejectDialog } from "./moderation-dialogs";
import { useOrderActions } from "./use-order-actions";
import type { OrderDetails } from "./types";
import { OrderDispatch } from "../dispatch/order-dispatch";
import { OrderSms } from "../sms/order-sms";
import { OrderMeter } from "./order-meter";
import { GiveToDriver, GIVABLE_STATES } from "./give-to-driver";
import { StatusChange } from "./status-change";
import { machineText } from "@/shared/i18n/console/machine-text";

/** Moves that hand the order to a driver: the panel asks which. */

function line(...parts: Array<string | null | undefined>): string {
  return parts.filter((p) => p && p.trim()).join(", ");
}

export function OrderPanel({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const order = useQuery(trpc.orders.get.queryOptions({ id }));
  const data = order.data;
  return (
    <aside className="panel" role="complementary" aria-label={t.order.title(id)} data-testid="order-panel">
      <div className="panel-head">
        <div className="panel-title">
          <h2>{t.order.title(id)}</h2>
          {data ? <StateBadge state={data.state} withCode /> : null}
        </div>
        <button type="button" className="icon-btn" aria-label={t.common.close} onClick={onClose} title="Esc">
          <Icon name="close" />
        </button>
      </div>
      <div className="panel-body">
        {order.isLoading ? <div className="muted pad">{t.common.loading}</div> : null}
        {order.error ? <ErrorNotice error={order.error} onRetry={() => order.refetch()} /> : null}
        {data ? <OrderContent order={data} /> : null}
      </div>
    </aside>
  );
}

function OrderContent({ order }: { order: OrderDetails }) {
  const { t, fmt, locale } = useI18n();
  const name = (x: { name: string; nameEn: string } | null) => (x ? (locale === "en" ? x.nameEn : x.name) : t.common.none);
  const finished = isOrderState(order.state) && isDone(order.state);
  return (
    <>
      {order.state === "ON_MODERATION" ? <ModerationBar order={order} /> : null}
      {GIVABLE_STATES.includes(order.state) ? <GiveToDriver key={order.id} order={order} autoFocus /> : null}
      {!finished ? <StatusChange key={`${order.id}:${order.version}`} order={order} /> : null}

      <section className="card">
        <h3>{t.order.route}</h3>
        <div className="route">
          <div className="route-point">
            <span className="route-dot route-from" />
            <div>
              <div className="strong">{line(order.street, order.house) || t.common.none}</div>
              <div className="muted small">
                {line(order.entrance && `${t.order.entrance} ${order.entrance}`, order.apartment && `${t.order.apartment} ${order.apartment}`)}
              </div>
            </div>
          </div>
          <div className="route-point">
            <span className="route-dot route-to" />
            <div className="strong">{order.dst || line(order.dstStreet, order.dstHouse) || <span className="muted">{t.order.noDestination}</span>}</div>
          </div>
        </div>
        <dl className="facts">
          <dt>{t.order.amount}</dt>
          <dd className="num strong">{fmt.money(order.amount)}</dd>
          <dt>{t.order.distance}</dt>
          <dd>{order.distance ? t.common.km(fmt.km(order.distance)) : t.common.none}</dd>
          {order.routeTime ? (
            <>
              <dt>{t.order.routeTime}</dt>
              <dd>{t.common.minutes(Math.max(1, Math.round(order.routeTime / 60)))}</dd>
            </>
          ) : null}
          {order.arrivalAt && !finished ? (
            <>
              <dt>{t.order.carArrives}</dt>
              <dd className="strong" data-testid="order-arrival">
                {fmt.time(order.arrivalAt)}
              </dd>
            </>
          ) : null}
          <dt>{t.order.service}</dt>
          <dd>{name(order.service)}</dd>
          <dt>{t.order.region}</dt>
          <dd>{name(order.region)}</dd>
          {order.preOrderTime ? (
            <>
              <dt>{t.order.preOrderTime}</dt>
              <dd className="strong">{fmt.dateTime(order.preOrderTime)}</dd>
            </>
          ) : null}
          {order.extras.length ? (
            <>
              <dt>{t.newOrder.extras}</dt>
              <dd>{order.extras.map((e) => `${locale === "en" ? e.extra.nameEn : e.extra.name}${e.count > 1 ? ` ×${e.count}` : ""}`).join(", ")}</dd>
            </>
          ) : null}
        </dl>
        {order.comment ? <p className="comment">{order.comment}</p> : null}
        {order.cancelReason ? (
          <p className="comment comment-danger">
            {t.order.cancelReason}: {order.cancelReason}
          </p>
        ) : null}
      </section>

      <section className="card two-col">
        <div>
          <h3>{t.order.client}</h3>
          <div className="strong mono">
            <CallButton phone={order.phone} orderId={order.id} who="client" />
          </div>
          <div>{order.clientName || order.client?.name || <span className="muted">{t.common.none}</span>}</div>
          {order.phone ? (
            <Link className="small" href={clientCardHref(order.phone)} data-testid="order-client-card">
              {t.clients.openCard}
            </Link>
          ) : null}
          {order.client ? (
            <div className="muted small">
              {t.order.bonus}: {order.client.bonus}
            </div>
          ) : null}
        </div>
        <div>
          <h3>{t.order.driver}</h3>
          {order.driver ? (
            <>
              <div className="strong">
                {order.driver.callSign} · {order.driver.lastName} {order.driver.firstName}
              </div>
              {order.driver.car ? (
                <div className="small">
                  {order.driver.car.brand} {order.driver.car.model}, {order.driver.car.color} · <span className="plate">{order.driver.car.regNumber}</span>
                </div>
              ) : null}
              <div className="muted small mono">
                <CallButton phone={order.driver.phone} orderId={order.id} who="driver" />
              </div>
            </>
          ) : (
            <div className="muted">{t.order.noDriver}</div>
          )}
        </div>
      </section>

      <section className="card">
        <dl className="facts">
          <dt>{t.order.created}</dt>
          <dd>{fmt.dateTime(order.createdAt)}</dd>
          <dt>{t.order.source}</dt>
          <dd>
            {t.order.sources[order.source]}
            {order.apiKey ? ` · ${order.apiKey.name}` : ""}
          </dd>
          <dt>UUID</dt>
          <dd className="mono small">{order.uuid}</dd>
        </dl>
      </section>

      <OrderMeter orderId={order.id} state={order.state} />
      <OrderDispatch orderId={order.id} state={order.state} />
      <OrderSms orderId={order.id} />
      {!finished ? <EditOrder order={order} /> : null}
      <History order={order} />
      <CallLog orderId={order.id} />
      <CallLog phone={order.phone} exceptOrderId={order.id} />
    </>
  );
}

function ModerationBar({ order }: { order: OrderDetails }) {
  const { t } = useI18n();
  const { approve } = useOrderActions();
  const [dialog, setDialog] = useState<"reject" | "driver" | null>(null);
  const target = { id: order.id, version: order.version, serviceId: order.service.id };
  return (
    <section className="card card-moderation">
      <h3>{t.moderation.title}</h3>
      <div className="row-actions">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => approve.mutate({ orderId: order.id, expectedVersion: order.version })}
        >
          <Icon name="check" size={16} />
          {t.moderation.approve}
        </button>
        <button type="button" className="btn" onClick={() => setDialog("driver")}>
          {t.moderation.toDriver}
        </button>
        <button type="button" className="btn btn-ghost-danger" onClick={() => setDialog("reject")}>
          {t.moderation.reject}
        </button>
      </div>
      {dialog === "reject" ? <RejectDialog order={target} onClose={() => setDialog(null)} /> : null}
      {dialog === "driver" ? <ApproveToDriverDialog order={target} onClose={() => setDialog(null)} /> : null}
    </section>
  );
}

interface EditValues {
  comment: string;
  clientName: string;
  street: string;
  house: string;
  entrance: string;
  apartment: string;
  dst: string;
  amount: string;
}

function valuesOf(order: OrderDetails): EditValues {
  return {
    comment: order.comment,
    clientName: order.clientName,
    street: order.street,
    house: order.house,
    entrance: order.entrance,
    apartment: order.apartment,
    dst: order.dst,
    amount: order.amount === null ? "" : String(order.amount / 100),
  };
}

/** The typed fare in kopecks; empty: cleared (null); not an amount: unchanged (undefined). */
function toKopecks(value: string): number | null | undefined {
  if (value.trim() === "") return null;
  return parseRoubles(value) ?? undefined;
}

function EditOrder({ order }: { order: OrderDetails }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [base, setBase] = useState(() => ({ version: order.version, values: valuesOf(order) }));
  const [values, setValues] = useState<EditValues>(base.values);
  const [error, setError] = useState<{ message: string; conflict: boolean } | null>(null);
  const dirty = useMemo(() => (Object.keys(values) as Array<keyof EditValues>).some((k) => values[k] !== base.values[k]), [values, base]);
  const stale = order.version !== base.version;

  // Untouched forms follow the order; touched ones keep the operator's words.
  useEffect(() => {
    if (!dirty && stale) {
      const next = { version: order.version, values: valuesOf(order) };
      // eslint-disable-next-line react-hooks/set-state-in-effect -- an untouched form follows the order as the server changes it
      setBase(next);
      setValues(next.values);
    }
  }, [dirty, stale, order]);

  const reload = () => {
    const next = { version: order.version, values: valuesOf(order) };
    setBase(next);
    setValues(next.values);
    setError(null);
    void queryClient.invalidateQueries({ queryKey: trpc.orders.get.queryKey({ id: order.id }) });
  };

  const update = useMutation(
    trpc.orders.update.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (res) => {
        toast.success(t.order.saved(res.id));
        setBase({ version: res.version, values });
        setError(null);
        void queryClient.invalidateQueries({ queryKey: trpc.orders.get.queryKey({ id: order.id }) });
      },
      onError: (e) => {
        const info = errorInfo(e, t);
        setError({ message: info.message, conflict: info.code === "CONFLICT" });
      },
    }),
  );

  const save = () => {
    const amount = toKopecks(values.amount);
    const changed = <K extends keyof EditValues>(k: K) => (values[k] !== base.values[k] ? values[k] : undefined);
    update.mutate({
      orderId: order.id,
      expectedVersion: base.version,
      comment: changed("comment"),
      clientName: changed("clientName"),
      street: changed("street"),
      house: changed("house"),
      entrance: changed("entrance"),
      apartment: changed("apartment"),
      dst: changed("dst"),
      amount: values.amount !== base.values.amount && amount !== undefined ? amount : undefined,
    });
  };

  const field = (key: keyof EditValues, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <label className="field">
      <span>{label}</span>
      <input name={key} value={values[key]} onChange={(e) => setValues({ ...values, [key]: e.target.value })} {...props} />
    </label>
  );

  return (
    <section className="card" aria-label={t.order.edit}>
      <h3>
        {t.order.edit}
        {dirty ? <span className="pill pill-warn">{t.order.unsaved}</span> : null}
      </h3>
      {stale && dirty && !error ? (
        <div className="notice notice-warn" role="status">
          {t.order.changedElsewhere}{" "}
          <button type="button" className="btn btn-small" onClick={reload}>
            {t.common.reload}
          </button>
        </div>
      ) : null}
      {error ? (
        <div className="notice notice-error" role="alert" data-testid="edit-error">
          {error.message}{" "}
          {error.conflict ? (
            <button type="button" className="btn btn-small" onClick={reload}>
              {t.common.reload}
            </button>
          ) : null}
        </div>
      ) : null}
      <form
        className="edit-form"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s") {
            e.preventDefault();
            save();
          }
        }}
      >
        <div className="grid-2">
          {field("street", t.order.street)}
          {field("house", t.order.house)}
          {field("entrance", t.order.entranceField)}
          {field("apartment", t.order.apartmentField)}
        </div>
        {field("dst", t.order.dst)}
        <div className="grid-2">
          {field("clientName", t.order.name)}
          {field("amount", t.order.amountRub, { inputMode: "decimal" })}
        </div>
        <label className="field">
          <span>{t.order.comment}</span>
          <textarea name="comment" rows={2} value={values.comment} onChange={(e) => setValues({ ...values, comment: e.target.value })} />
        </label>
        <div className="row-actions">
          <button type="submit" className="btn btn-primary" disabled={!dirty || update.isPending}>
            {t.common.save}
          </button>
          {dirty ? (
            <button type="button" className="btn" onClick={() => setValues(base.values)}>
              {t.common.cancel}
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}

function History({ order }: { order: OrderDetails }) {
  const { t, fmt, locale } = useI18n();
  return (
    <section className="card" aria-label={t.order.history}>
      <h3>{t.order.history}</h3>
      {order.history.length === 0 ? (
        <div className="muted">{t.order.historyEmpty}</div>
      ) : (
        <ol className="history" data-testid="order-history">
          {[...order.history].reverse().map((h) => (
            <li key={h.id}>
              <div className="history-when mono">{fmt.dateTime(h.at)}</div>
              <div className="history-move">
                {h.fromState ? <StateBadge state={h.fromState} /> : null}
                {h.fromState ? <span className="arrow">→</span> : null}
                <StateBadge state={h.toState} withCode />
              </div>
              <div className="history-who small">
                {t.order.actor[h.actorType]}
                {h.actorName ? `: ${h.actorName}` : h.actorId ? ` #${h.actorId}` : ""}
                {h.reason ? <span className="muted"> — {machineText(h.reason, locale)}</span> : null}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
