"use client";
// A phone order, keyboard first: phone (the caller's recent addresses appear
// at once), pickup street with suggestions, house, destination, service,
// extras, time; the price follows as the dispatcher types; Enter creates the
// order. The quoted price is kept (the estimate's token) unless overridden.
import { useEffect, useMemo, useRef, useState } from "react";
import Link from "next/link";
import { useRouter, useSearchParams } from "next/navigation";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useDebounced } from "../use-debounced";
import { Icon } from "../icons";
import { Kbd, Modal, PageHeader, isTyping } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import { StreetInput } from "./street-input";
import { parseRoubles } from "@/shared/money";
import { parseAdvanceTime } from "@/shared/orders/advance-time";
import { AdvanceTimeField } from "./advance-time";
import { useNow } from "../use-now";

interface Address {
  street: string;
  house: string;
  entrance: string;
  apartment: string;
  publicPlace: boolean;
}

const EMPTY_ADDRESS: Address = { street: "", house: "", entrance: "", apartment: "", publicPlace: false };

interface FormState {
  phone: string;
  clientName: string;
  pickup: Address;
  destination: Address;
  serviceId: number | null;
  extras: Record<number, number>;
  when: "now" | "at";
  at: string;
  comment: string;
  amount: string;
}

const EMPTY: FormState = {
  phone: "",
  clientName: "",
  pickup: EMPTY_ADDRESS,
  destination: EMPTY_ADDRESS,
  serviceId: null,
  extras: {},
  when: "now",
  at: "",
  comment: "",
  amount: "",
};

function digits(phone: string): string {
  return phone.replace(/\D/g, "");
}

/** The typed fare in kopecks; empty or not an amount: none (the estimate's price applies). */
function toKopecks(value: string): number | undefined {
  return parseRoubles(value) ?? undefined;
}

function addressInput(a: Address) {
  return { street: a.street.trim(), house: a.house.trim(), entrance: a.entrance.trim(), apartment: a.apartment.trim() };
}

export function PhoneOrderForm() {
  const { t, fmt, locale, stateTitle } = useI18n();
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const searchParams = useSearchParams();
  const [form, setForm] = useState<FormState>(() => ({ ...EMPTY, phone: (searchParams.get("phone") ?? "").slice(0, 40) }));
  const [errors, setErrors] = useState<Partial<Record<"phone" | "street", string>>>({});
  const [submitError, setSubmitError] = useState<string | null>(null);
  const phoneRef = useRef<HTMLInputElement>(null);
  const pickupRef = useRef<HTMLInputElement>(null);

  // Opened from the incoming-call pop-up (/orders/new?phone=...): the caller's number is filled in, the pickup focused.
  const calledFrom = useRef(form.phone !== "");
  useEffect(() => {
    if (calledFrom.current) pickupRef.current?.focus();
  }, []);

  const lookups = useQuery(trpc.reference.lookups.queryOptions(undefined, { staleTime: 5 * 60_000 }));
  const services = lookups.data?.services ?? [];
  const serviceId = form.serviceId ?? services[0]?.id ?? null;
  const service = services.find((s) => s.id === serviceId);
  const name = (x: { name: string; nameEn: string }) => (locale === "en" ? x.nameEn : x.name);
  // The advance time is read on the service's city clock (issue 34).
  const timeZone = lookups.data?.cities.find((c) => c.id === service?.cityId)?.timezone ?? lookups.data?.cities[0]?.timezone ?? "Europe/Moscow";
  const advanceRef = useRef<HTMLInputElement>(null);
  const [advanceTried, setAdvanceTried] = useState(false);
  // "At a time" starts at now plus the service's lead time: the distribution
  // settings' advanceLeadMinutes (the service's default row, else its
  // shortest regional one), when the order starts being offered to drivers.
  // The schema has no other minimum advance per service.
  const dispatchSettings = useQuery(trpc.dispatch.settings.queryOptions(undefined, { staleTime: 5 * 60_000 }));
  const leadMinutes = useMemo(() => {
    const rows = (dispatchSettings.data ?? []).filter((r) => r.serviceId === serviceId);
    const own = rows.find((r) => r.regionId === null);
    return own?.advanceLeadMinutes ?? (rows.length ? Math.min(...rows.map((r) => r.advanceLeadMinutes)) : null);
  }, [dispatchSettings.data, serviceId]);
  const clock = useNow(5_000);

  // ------------------------------------------------------------ caller
  const phoneDigits = digits(form.phone);
  const debouncedPhone = useDebounced(phoneDigits, 250);
  const recent = useQuery(
    trpc.orders.recentAddresses.queryOptions({ phone: debouncedPhone }, { enabled: debouncedPhone.length >= 10, staleTime: 30_000 }),
  );
  useEffect(() => {
    const known = recent.data?.client?.name;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fills the name once the server knows the caller (server data, not derived state)
    if (known) setForm((f) => (f.clientName ? f : { ...f, clientName: known }));
  }, [recent.data]);

  // ------------------------------------------------------------ estimate
  const estimateInput = useMemo(() => {
    const advance = form.when === "at" ? parseAdvanceTime(form.at, clock, timeZone) : null;
    const preOrderTime = advance && "at" in advance ? advance.at : undefined;
    return {
      pickup: addressInput(form.pickup),
      destination: form.destination.street.trim() ? addressInput(form.destination) : undefined,
      serviceId: serviceId ?? undefined,
      extras: Object.entries(form.extras)
        .filter(([, count]) => count > 0)
        .map(([id, count]) => ({ id: Number(id), count })),
      preOrderTime: preOrderTime && !Number.isNaN(preOrderTime.getTime()) ? preOrderTime : undefined,
      phone: phoneDigits.length >= 10 ? form.phone : undefined,
    };
  }, [form, serviceId, phoneDigits, timeZone, clock]);
  const estimateKey = JSON.stringify(estimateInput);
  const debouncedKey = useDebounced(estimateKey, 300);
  const debouncedInput = useMemo(() => JSON.parse(debouncedKey, (k, v) => (k === "preOrderTime" ? new Date(v as string) : v)) as typeof estimateInput, [debouncedKey]);
  const canEstimate = debouncedInput.pickup.street.length >= 2 && serviceId !== null;
  const estimate = useQuery(
    trpc.orders.estimate.queryOptions(debouncedInput, { enabled: canEstimate, placeholderData: keepPreviousData, retry: false, staleTime: 60_000 }),
  );
  const estimateFresh = canEstimate && debouncedKey === estimateKey && !estimate.isPlaceholderData && !estimate.isFetching;

  // ------------------------------------------------------------ create
  const create = useMutation(
    // eslint-disable-next-line react-hooks/refs -- the callbacks run when the mutation settles, never during render
    trpc.orders.create.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (order) => {
        toast.success(t.newOrder.created(order.id));
        void queryClient.invalidateQueries({ queryKey: trpc.orders.recentAddresses.pathKey() });
        setForm({ ...EMPTY, serviceId: form.serviceId });
        setAdvanceTried(false);
        setErrors({});
        setSubmitError(null);
        phoneRef.current?.focus();
      },
      onError: (e) => setSubmitError(errorInfo(e, t).message),
    }),
  );

  // A repeat call: the phone's active orders near this pickup, asked about before saving.
  const [duplicates, setDuplicates] = useState<Array<{ id: number; state: string; street: string; house: string }> | null>(null);

  const submit = async (confirmed = false) => {
    const next: typeof errors = {};
    if (phoneDigits.length < 10) next.phone = phoneDigits.length === 0 ? t.newOrder.required : t.newOrder.tooShort;
    if (!form.pickup.street.trim()) next.street = t.newOrder.required;
    setErrors(next);
    if (next.phone) return phoneRef.current?.focus();
    if (next.street) return pickupRef.current?.focus();
    if (form.when === "at" && !("at" in parseAdvanceTime(form.at, clock, timeZone))) {
      setAdvanceTried(true);
      return advanceRef.current?.focus();
    }
    if (!confirmed) {
      const found = await queryClient
        .fetchQuery({ ...trpc.orders.duplicates.queryOptions({ phone: form.phone, street: form.pickup.street.trim(), house: form.pickup.house.trim() }), staleTime: 0 })
        .catch(() => []);
      if (found.length) return setDuplicates(found);
    }
    setDuplicates(null);
    const amount = toKopecks(form.amount);
    create.mutate({
      ...estimateInput,
      phone: form.phone,
      clientName: form.clientName.trim() || undefined,
      comment: form.comment.trim() || undefined,
      amount,
      token: amount === undefined && estimateFresh && estimate.data ? estimate.data.token : undefined,
    });
  };

  const fillPickup = (i: number) => {
    const a = recent.data?.addresses[i];
    if (!a) return;
    setForm((f) => ({ ...f, pickup: { street: a.street, house: a.house, entrance: a.entrance, apartment: a.apartment, publicPlace: false } }));
  };
  const fillDestination = (i: number) => {
    const a = recent.data?.addresses[i];
    if (!a) return;
    setForm((f) => ({ ...f, destination: { ...EMPTY_ADDRESS, street: a.street, house: a.house } }));
  };

  // ------------------------------------------------------------ keys
  const pristine = JSON.stringify({ ...form, serviceId: null }) === JSON.stringify(EMPTY);
  useEffect(() => {
    phoneRef.current?.focus();
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && /^Digit[1-9]$/.test(e.code)) {
        e.preventDefault();
        fillPickup(Number(e.code.slice(5)) - 1);
      } else if (e.key === "Escape" && (!isTyping(e.target) || pristine) && !document.querySelector(".modal")) {
        // In a field Esc leaves only an untouched form (as after an order is created, the phone focused):
        // by keyboard alone there is always a field focused, and nothing typed is lost.
        router.push("/orders");
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const setAddress = (which: "pickup" | "destination", patch: Partial<Address>) => setForm((f) => ({ ...f, [which]: { ...f[which], ...patch } }));

  const addressFields = (which: "pickup" | "destination") => {
    const a = form[which];
    return (
      <div className="address-grid">
        <StreetInput
          label={t.newOrder.street}
          name={`${which}-street`}
          value={a.street}
          inputRef={which === "pickup" ? pickupRef : undefined}
          required={which === "pickup"}
          invalid={which === "pickup" && Boolean(errors.street)}
          onChange={(street) => setAddress(which, { street, publicPlace: false })}
          onPick={(s) => setAddress(which, { street: s.fullName, publicPlace: s.kind === "PUBLIC_PLACE" })}
        />
        <label className="field">
          <span>{t.newOrder.house}</span>
          <input name={`${which}-house`} value={a.house} autoComplete="off" onChange={(e) => setAddress(which, { house: e.target.value })} />
        </label>
        {which === "pickup" ? (
          <>
            <label className="field">
              <span>{t.newOrder.entrance}</span>
              <input name="pickup-entrance" value={a.entrance} autoComplete="off" onChange={(e) => setAddress(which, { entrance: e.target.value })} />
            </label>
            <label className="field">
              <span>{t.newOrder.apartment}</span>
              <input name="pickup-apartment" value={a.apartment} autoComplete="off" onChange={(e) => setAddress(which, { apartment: e.target.value })} />
            </label>
          </>
        ) : null}
      </div>
    );
  };

  const est = estimate.data;
  const estimateError = canEstimate && estimate.error && !estimate.isFetching ? errorInfo(estimate.error, t).message : null;

  return (
    <div className="page page-new-order">
      <PageHeader title={t.newOrder.title} sub={<span className="muted small">{t.newOrder.submitHint}</span>}>
        <Link href="/orders" className="btn">
          {t.nav.orders}
          <Kbd>Esc</Kbd>
        </Link>
      </PageHeader>
      <div className="new-order">
        <form
          className="card new-order-form"
          aria-label={t.newOrder.title}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
          onKeyDown={(e) => {
            // Enter creates the order from any field but the comment (Ctrl+Enter there).
            if (e.key === "Enter" && (e.target as HTMLElement).tagName === "TEXTAREA" && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void submit();
            }
          }}
        >
          <div className="grid-2">
            <label className="field">
              <span>
                {t.newOrder.phone}
                <span className="req"> *</span>
              </span>
              <input
                ref={phoneRef}
                name="phone"
                type="tel"
                inputMode="tel"
                autoComplete="off"
                placeholder={t.newOrder.phonePlaceholder}
                value={form.phone}
                aria-invalid={errors.phone ? true : undefined}
                onChange={(e) => setForm({ ...form, phone: e.target.value })}
              />
              {errors.phone ? <span className="field-error">{errors.phone}</span> : null}
            </label>
            <label className="field">
              <span>{t.newOrder.clientName}</span>
              <input name="clientName" autoComplete="off" value={form.clientName} onChange={(e) => setForm({ ...form, clientName: e.target.value })} />
            </label>
          </div>

          <fieldset className="fieldset">
            <legend>
              <span className="route-dot route-from" />
              {t.newOrder.from}
            </legend>
            {addressFields("pickup")}
            {errors.street ? <span className="field-error">{errors.street}</span> : null}
          </fieldset>
          <fieldset className="fieldset">
            <legend>
              <span className="route-dot route-to" />
              {t.newOrder.to}
            </legend>
            {addressFields("destination")}
          </fieldset>

          <div className="grid-2">
            <label className="field">
              <span>{t.newOrder.service}</span>
              <select
                name="service"
                value={serviceId ?? ""}
                onChange={(e) => setForm({ ...form, serviceId: Number(e.target.value), extras: {} })}
              >
                {services.map((s) => (
                  <option key={s.id} value={s.id}>
                    {name(s)}
                  </option>
                ))}
              </select>
            </label>
            <div className="field">
              <span>{t.newOrder.when}</span>
              <div className="when">
                <div className="segmented" role="radiogroup" aria-label={t.newOrder.when}>
                  {(["now", "at"] as const).map((w) => (
                    <button
                      key={w}
                      type="button"
                      role="radio"
                      aria-checked={form.when === w}
                      className={form.when === w ? "active" : ""}
                      onClick={() => {
                        // The default is selected, so that typing "+30" or "22:30" replaces it.
                        setForm({ ...form, when: w, at: w === "at" && !form.at.trim() && leadMinutes !== null ? `+${leadMinutes}` : form.at });
                        if (w === "at") setTimeout(() => { advanceRef.current?.focus(); advanceRef.current?.select(); }, 0);
                      }}
                    >
                      {w === "now" ? t.newOrder.now : t.newOrder.preOrder}
                    </button>
                  ))}
                </div>
                {form.when === "at" ? (
                  <AdvanceTimeField value={form.at} onChange={(at) => setForm({ ...form, at })} timeZone={timeZone} inputRef={advanceRef} showError={advanceTried} />
                ) : null}
              </div>
            </div>
          </div>

          {service && service.extras.length ? (
            <div className="field">
              <span>{t.newOrder.extras}</span>
              <div className="chips">
                {service.extras.map((x) => {
                  const on = (form.extras[x.id] ?? 0) > 0;
                  return (
                    <label key={x.id} className={`chip${on ? " on" : ""}`}>
                      <input
                        type="checkbox"
                        checked={on}
                        onChange={(e) => setForm({ ...form, extras: { ...form.extras, [x.id]: e.target.checked ? 1 : 0 } })}
                      />
                      {name(x)}
                      <span className="muted">+{fmt.money(x.price)}</span>
                    </label>
                  );
                })}
              </div>
            </div>
          ) : null}

          <div className="grid-2">
            <label className="field">
              <span>{t.newOrder.comment}</span>
              <textarea name="comment" rows={2} value={form.comment} onChange={(e) => setForm({ ...form, comment: e.target.value })} />
            </label>
            <label className="field">
              <span>{t.newOrder.amountOverride}</span>
              <input
                name="amount"
                inputMode="decimal"
                placeholder={t.newOrder.amountOverrideHint}
                value={form.amount}
                onChange={(e) => setForm({ ...form, amount: e.target.value })}
              />
            </label>
          </div>

          {submitError ? (
            <div className="notice notice-error" role="alert" data-testid="create-error">
              {submitError}
            </div>
          ) : null}
          <div className="form-foot">
            <button type="submit" className="btn btn-primary btn-large" disabled={create.isPending}>
              <Icon name="plus" size={16} />
              {t.newOrder.submit}
              <Kbd>Enter</Kbd>
            </button>
          </div>
        </form>
        {duplicates ? (
          <Modal
            title={t.newOrder.duplicate.title}
            onClose={() => setDuplicates(null)}
            width={520}
            footer={
              <>
                <button type="button" className="btn" onClick={() => setDuplicates(null)}>
                  {t.newOrder.duplicate.keep}
                </button>
                <button type="button" className="btn btn-primary" onClick={() => void submit(true)}>
                  {t.newOrder.duplicate.create}
                </button>
              </>
            }
          >
            <p>{t.newOrder.duplicate.text(duplicates.length)}</p>
            <ul data-testid="duplicates">
              {duplicates.map((d) => (
                <li key={d.id}>
                  {t.newOrder.duplicate.order(d.id, [d.street, d.house].filter(Boolean).join(", "), stateTitle(d.state))}
                </li>
              ))}
            </ul>
          </Modal>
        ) : null}

        <div className="new-order-side">
          <section className="card estimate" aria-label={t.newOrder.estimate} data-testid="estimate">
            <h3>{t.newOrder.estimate}</h3>
            {!canEstimate ? <div className="muted">{t.newOrder.estimateHint}</div> : null}
            {canEstimate && estimateError ? (
              <div className="notice notice-warn" role="status">
                {estimateError}
              </div>
            ) : null}
            {canEstimate && est && !estimateError ? (
              <div className={estimate.isFetching || debouncedKey !== estimateKey ? "estimate-stale" : ""}>
                <div className="estimate-amount" data-testid="estimate-amount">
                  {toKopecks(form.amount) !== undefined ? fmt.money(toKopecks(form.amount)) : fmt.money(est.amount)}
                </div>
                <div className="muted">
                  {t.newOrder.route(fmt.km(est.distanceMetres), Math.max(1, Math.round(est.routeSeconds / 60)))}
                  {est.approximate ? <span className="pill">{t.newOrder.approximate}</span> : null}
                </div>
                <dl className="facts facts-tight">
                  <dt>{t.newOrder.breakdown.pickUp}</dt>
                  <dd className="num">{fmt.money(est.breakdown.pickUp)}</dd>
                  <dt>{t.newOrder.breakdown.distance}</dt>
                  <dd className="num">{fmt.money(est.breakdown.distanceCost)}</dd>
                  {est.breakdown.timeCost ? (
                    <>
                      <dt>{t.newOrder.breakdown.time}</dt>
                      <dd className="num">{fmt.money(est.breakdown.timeCost)}</dd>
                    </>
                  ) : null}
                  {est.breakdown.loadMarkup ? (
                    <>
                      <dt>
                        {t.newOrder.breakdown.markup} ({est.breakdown.loadMarkupPercent}%)
                      </dt>
                      <dd className="num">{fmt.money(est.breakdown.loadMarkup)}</dd>
                    </>
                  ) : null}
                  {est.breakdown.extras ? (
                    <>
                      <dt>{t.newOrder.breakdown.extras}</dt>
                      <dd className="num">{fmt.money(est.breakdown.extras)}</dd>
                    </>
                  ) : null}
                </dl>
              </div>
            ) : null}
            {canEstimate && !est && estimate.isFetching ? <div className="muted">{t.newOrder.estimating}</div> : null}
          </section>

          <section className="card" aria-label={t.newOrder.recent} data-testid="recent-addresses">
            <h3>
              {t.newOrder.recent}
              {recent.data?.orders ? <span className="muted small"> · {t.newOrder.ordersCount(recent.data.orders)}</span> : null}
            </h3>
            {phoneDigits.length < 10 ? <div className="muted small">{t.newOrder.recentHint}</div> : null}
            {phoneDigits.length >= 10 && recent.data && recent.data.addresses.length === 0 ? <div className="muted">{t.newOrder.recentEmpty}</div> : null}
            {recent.data && recent.data.addresses.length ? (
              <ol className="recent">
                {recent.data.addresses.map((a, i) => (
                  <li key={`${a.street}|${a.house}`}>
                    <button type="button" className="recent-pick" onClick={() => fillPickup(i)} title={t.newOrder.from}>
                      <Kbd>Alt+{i + 1}</Kbd>
                      <span className="strong">{[a.street, a.house].filter(Boolean).join(", ")}</span>
                      <span className="muted small">{a.role === "pickup" ? t.newOrder.recentPickup : t.newOrder.recentDestination}</span>
                    </button>
                    <button type="button" className="btn btn-small btn-ghost" onClick={() => fillDestination(i)} title={t.newOrder.to}>
                      → {t.newOrder.to}
                    </button>
                  </li>
                ))}
              </ol>
            ) : null}
          </section>
        </div>
      </div>
    </div>
  );
}
