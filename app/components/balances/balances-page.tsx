"use client";
// Balances for accountants: exact totals, drivers' and companies' accounts,
// the chosen account's ledger (newest first, paged), and a credit or debit
// with a reason. The form makes its transaction id when it opens, so a
// double submit (or a retry after a lost reply) applies once.
import { useEffect, useMemo, useRef, useState } from "react";
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { formatKopecksExact, parseRoubles } from "@/shared/money";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useLiveEvents } from "../live";
import { useDebounced } from "../use-debounced";
import { Icon } from "../icons";
import { EmptyState, ErrorNotice, Modal, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import "./balances.css";

type Account = "driver" | "customer";

function newTxnId(): string {
  return typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

export function BalancesPage() {
  const { t, locale } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [account, setAccount] = useState<Account>("driver");
  const [search, setSearch] = useState("");
  const [negative, setNegative] = useState(false);
  const [selected, setSelected] = useState<{ account: Account; id: number } | null>(null);
  const q = useDebounced(search.trim(), 250);
  const money = (k: bigint | number | null | undefined) => formatKopecksExact(k, locale);

  const totals = useQuery(trpc.balances.totals.queryOptions(undefined, { refetchInterval: 30_000 }));
  const input = { q: q || undefined, negative: negative || undefined, limit: 100 };
  const drivers = useInfiniteQuery(
    trpc.balances.drivers.infiniteQueryOptions(input, { enabled: account === "driver", getNextPageParam: (p) => p.nextCursor ?? undefined, placeholderData: keepPreviousData }),
  );
  const customers = useInfiniteQuery(
    trpc.balances.customers.infiniteQueryOptions(input, { enabled: account === "customer", getNextPageParam: (p) => p.nextCursor ?? undefined, placeholderData: keepPreviousData }),
  );
  const list = account === "driver" ? drivers : customers;

  const refresh = useRef<ReturnType<typeof setTimeout> | null>(null);
  useLiveEvents((event) => {
    if (event.type !== "balance.changed" && event.type !== "resync") return;
    refresh.current ??= setTimeout(() => {
      refresh.current = null;
      void queryClient.invalidateQueries({ queryKey: trpc.balances.pathKey() });
    }, 800);
  });
  useEffect(
    () => () => {
      if (refresh.current) clearTimeout(refresh.current);
    },
    [],
  );

  const driverRows = useMemo(() => drivers.data?.pages.flatMap((p) => p.items) ?? [], [drivers.data]);
  const customerRows = useMemo(() => customers.data?.pages.flatMap((p) => p.items) ?? [], [customers.data]);
  const rows = account === "driver" ? driverRows.length : customerRows.length;

  return (
    <div className="page balances-page" data-testid="balances-page">
      <PageHeader title={t.balances.title} />
      <div className="totals" data-testid="balance-totals">
        <div className="total-card">
          <div className="total-label">{t.balances.totals.drivers}</div>
          <div className={`total-value${totals.data && totals.data.drivers.sum < 0n ? " negative" : ""}`} data-testid="total-drivers">
            {totals.data ? money(totals.data.drivers.sum) : "…"}
          </div>
          <div className="muted small">{totals.data ? t.balances.totals.accounts(totals.data.drivers.count) : ""}</div>
        </div>
        <div className="total-card">
          <div className="total-label">{t.balances.totals.customers}</div>
          <div className={`total-value${totals.data && totals.data.customers.sum < 0n ? " negative" : ""}`} data-testid="total-customers">
            {totals.data ? money(totals.data.customers.sum) : "…"}
          </div>
          <div className="muted small">{totals.data ? t.balances.totals.accounts(totals.data.customers.count) : ""}</div>
        </div>
        <div className="total-card total-card-warn">
          <div className="total-label">{t.balances.totals.debtors}</div>
          <div className="total-value">{totals.data ? totals.data.drivers.negative + totals.data.customers.negative : "…"}</div>
          <div className="muted small">
            {totals.data
              ? `${t.balances.totals.debt(totals.data.drivers.negative, totals.data.customers.negative)} · ${t.balances.totals.debtSum(money(totals.data.drivers.debt + totals.data.customers.debt))}`
              : ""}
          </div>
        </div>
      </div>
      {totals.error ? (
        <ErrorNotice error={totals.error} onRetry={() => totals.refetch()} />
      ) : null}

      <div className="balances-body">
        <section className="balances-list">
          <div className="tabs" role="tablist">
            {(["driver", "customer"] as const).map((a) => (
              <button
                key={a}
                type="button"
                role="tab"
                aria-selected={account === a}
                className={`tab${account === a ? " active" : ""}`}
                onClick={() => {
                  setAccount(a);
                  setSearch("");
                }}
              >
                <Icon name={a === "driver" ? "drivers" : "balances"} size={16} />
                {a === "driver" ? t.balances.tabs.drivers : t.balances.tabs.customers}
              </button>
            ))}
          </div>
          <div className="filters">
            <label className="search">
              <Icon name="search" size={16} />
              <input
                type="search"
                value={search}
                placeholder={account === "driver" ? t.balances.search.drivers : t.balances.search.customers}
                aria-label={account === "driver" ? t.balances.search.drivers : t.balances.search.customers}
                onChange={(e) => setSearch(e.target.value)}
              />
            </label>
            <label className="chip">
              <input type="checkbox" checked={negative} onChange={(e) => setNegative(e.target.checked)} />
              {t.balances.negativeOnly}
            </label>
          </div>
          {list.error ? (
            <ErrorNotice error={list.error} onRetry={() => list.refetch()} />
          ) : null}
          <div className="table-wrap balances-table">
            <table className="table" data-testid="accounts-table">
              <thead>
                {account === "driver" ? (
                  <tr>
                    <th>{t.balances.columns.callSign}</th>
                    <th>{t.balances.columns.driver}</th>
                    <th className="num">{t.balances.columns.balance}</th>
                  </tr>
                ) : (
                  <tr>
                    <th>{t.balances.columns.customer}</th>
                    <th className="num">{t.balances.columns.orders}</th>
                    <th className="num">{t.balances.columns.balance}</th>
                  </tr>
                )}
              </thead>
              <tbody>
                {account === "driver"
                  ? driverRows.map((d) => {
                      const on = selected?.account === "driver" && selected.id === d.id;
                      return (
                        <tr
                          key={d.id}
                          data-account={d.callSign}
                          className={`row-click${on ? " row-selected" : ""}${d.active ? "" : " row-disabled"}`}
                          tabIndex={0}
                          aria-selected={on}
                          onClick={() => setSelected({ account: "driver", id: d.id })}
                          onKeyDown={(e) => {
                            if (e.key === "Enter" || e.key === " ") {
                              e.preventDefault();
                              setSelected({ account: "driver", id: d.id });
                            }
                          }}
                        >
                          <td className="mono strong">{d.callSign}</td>
                          <td>
                            {d.lastName} {d.firstName}
                            <div className="cell-sub">{locale === "en" ? d.city.nameEn : d.city.name}</div>
                          </td>
                          <td className={`num${d.balance < 0n ? " negative" : ""}`}>{money(d.balance)}</td>
                        </tr>
                      );
                    })
                  : customerRows.map((c) => {
                      const on = selected?.account === "customer" && selected.id === c.id;
                      return (
                        <tr
                          key={c.id}
                          data-account={c.name}
                          className={`row-click${on ? " row-selected" : ""}`}
                          tabIndex={0}
                          aria-selected={on}
                          onClick={() => setSelected({ account: "customer", id: c.id })}
                          onKeyDown={(e) => {
                            if (e.key === "Enter" || e.key === " ") {
                              e.preventDefault();
                              setSelected({ account: "customer", id: c.id });
                            }
                          }}
                        >
                          <td className="strong">
                            {c.name}
                            <div className="cell-sub">
                              {t.balances.columns.contract}: {c.contract || t.common.none}
                            </div>
                          </td>
                          <td className="num muted">{c._count.orders}</td>
                          <td className={`num${c.balance < 0n ? " negative" : ""}`}>{money(c.balance)}</td>
                        </tr>
                      );
                    })}
              </tbody>
            </table>
            {!list.isLoading && rows === 0 ? <EmptyState title={t.common.nothing} icon="balances" /> : null}
            {list.hasNextPage ? (
              <div className="pad">
                <button type="button" className="btn" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                  {t.common.loadMore}
                </button>
              </div>
            ) : null}
          </div>
        </section>
        <section className="balances-ledger">
          {selected ? <Ledger key={`${selected.account}-${selected.id}`} account={selected.account} id={selected.id} /> : <EmptyState title={t.balances.pick} icon="balances" />}
        </section>
      </div>
    </div>
  );
}

function Ledger({ account, id }: { account: Account; id: number }) {
  const { t, fmt, locale } = useI18n();
  const trpc = useTRPC();
  const [dialog, setDialog] = useState<"credit" | "debit" | null>(null);
  const money = (k: bigint | number | null | undefined) => formatKopecksExact(k, locale);
  const driver = useInfiniteQuery(
    trpc.balances.driverLedger.infiniteQueryOptions({ id, limit: 50 }, { enabled: account === "driver", getNextPageParam: (p) => p.nextCursor ?? undefined }),
  );
  const customer = useInfiniteQuery(
    trpc.balances.customerLedger.infiniteQueryOptions({ id, limit: 50 }, { enabled: account === "customer", getNextPageParam: (p) => p.nextCursor ?? undefined }),
  );
  const q = account === "driver" ? driver : customer;
  const first = account === "driver" ? driver.data?.pages[0] : customer.data?.pages[0];
  const entries = useMemo(
    () => (account === "driver" ? (driver.data?.pages.flatMap((p) => p.items) ?? []) : (customer.data?.pages.flatMap((p) => p.items) ?? [])),
    [account, driver.data, customer.data],
  );
  if (q.error) {
    return (
      <ErrorNotice error={q.error} onRetry={() => q.refetch()} />
    );
  }
  if (!first) return <div className="muted pad">{t.common.loading}</div>;
  const acc = first.account;
  const who =
    "callSign" in acc ? `${acc.callSign} · ${[acc.lastName, acc.firstName].filter(Boolean).join(" ")}` : "name" in acc ? acc.name : "";
  return (
    <div className="ledger" data-testid="ledger">
      <div className="ledger-head card">
        <div>
          <div className="muted small">{account === "driver" ? t.balances.columns.driver : t.balances.columns.customer}</div>
          <h2 data-testid="ledger-title">{who}</h2>
          <div className="muted small">{locale === "en" ? acc.city.nameEn : acc.city.name}</div>
        </div>
        <div className="ledger-balance">
          <div className="muted small">{t.balances.current}</div>
          <div className={`total-value${acc.balance < 0n ? " negative" : ""}`} data-testid="ledger-balance">
            {money(acc.balance)}
          </div>
          <div className="row-actions">
            <button type="button" className="btn btn-primary" onClick={() => setDialog("credit")}>
              <Icon name="plus" size={16} />
              {t.balances.credit}
            </button>
            <button type="button" className="btn" onClick={() => setDialog("debit")}>
              {t.balances.debit}
            </button>
          </div>
        </div>
      </div>
      <h3>{t.balances.ledger}</h3>
      <div className="table-wrap">
        <table className="table" data-testid="ledger-table">
          <thead>
            <tr>
              <th>{t.balances.ledgerColumns.at}</th>
              <th className="num">{t.balances.ledgerColumns.amount}</th>
              <th className="num">{t.balances.ledgerColumns.after}</th>
              <th>{t.balances.ledgerColumns.reason}</th>
              <th>{t.balances.ledgerColumns.actor}</th>
              {account === "driver" ? <th>{t.balances.ledgerColumns.order}</th> : null}
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id} data-txn={e.txnId}>
                <td className="muted nowrap small">{fmt.dateTime(e.createdAt)}</td>
                <td className={`num strong ${e.amount < 0n ? "negative" : "positive"}`}>
                  {e.amount > 0n ? "+" : ""}
                  {money(e.amount)}
                </td>
                <td className={`num${e.balanceAfter < 0n ? " negative" : ""}`}>{money(e.balanceAfter)}</td>
                <td className="ledger-reason">{e.reason || t.common.none}</td>
                <td>
                  <span className="ledger-actor">
                    <span>{e.actorName ?? t.balances.actors[e.actorType]}</span>
                    {e.actorName ? <span className="muted">{t.balances.actors[e.actorType]}</span> : null}
                  </span>
                </td>
                {account === "driver" ? <td className="mono">{e.orderId ? `№${e.orderId}` : t.common.none}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
        {entries.length === 0 ? <EmptyState title={t.balances.ledgerEmpty} icon="audit" /> : null}
        {q.hasNextPage ? (
          <div className="pad">
            <button type="button" className="btn" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
              {t.common.loadMore}
            </button>
          </div>
        ) : null}
      </div>
      {dialog ? <AdjustDialog account={account} id={id} who={who} balance={acc.balance} direction={dialog} onClose={() => setDialog(null)} /> : null}
    </div>
  );
}

function AdjustDialog({
  account,
  id,
  who,
  balance,
  direction: initial,
  onClose,
}: {
  account: Account;
  id: number;
  who: string;
  balance: bigint;
  direction: "credit" | "debit";
  onClose: () => void;
}) {
  const { t, locale } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // Made once when the form opens: a repeated submit carries the same id and applies once.
  const [txnId] = useState(newTxnId);
  const [direction, setDirection] = useState(initial);
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const kopecks = parseRoubles(amount);
  const amountBad = kopecks === null || kopecks <= 0;
  const reasonBad = reason.trim() === "";
  const after = kopecks !== null && kopecks > 0 ? balance + BigInt(direction === "debit" ? -kopecks : kopecks) : null;
  const adjust = useMutation(
    trpc.balances.adjust.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (r) => {
        if (r.applied) toast.success(t.balances.applied(`${r.amount > 0n ? "+" : ""}${formatKopecksExact(r.amount, locale)}`, who));
        else toast.info(t.balances.already);
        void queryClient.invalidateQueries({ queryKey: trpc.balances.pathKey() });
        onClose();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const submit = () => {
    setTouched(true);
    setError(null);
    if (amountBad || reasonBad || kopecks === null) return;
    adjust.mutate({ account, id, amount: kopecks, direction, reason: reason.trim(), txnId });
  };
  return (
    <Modal
      title={direction === "credit" ? t.balances.creditTitle(who) : t.balances.debitTitle(who)}
      onClose={onClose}
      width={480}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            {t.common.cancel}
          </button>
          <button type="button" className={`btn ${direction === "credit" ? "btn-primary" : "btn-danger"}`} onClick={submit} disabled={adjust.isPending}>
            {direction === "credit" ? t.balances.credit : t.balances.debit}
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
        <div className="field">
          <span>{t.balances.direction}</span>
          <div className="segmented" role="group" aria-label={t.balances.direction}>
            {(["credit", "debit"] as const).map((d) => (
              <button key={d} type="button" className={direction === d ? "active" : ""} aria-pressed={direction === d} onClick={() => setDirection(d)}>
                {d === "credit" ? t.balances.credit : t.balances.debit}
              </button>
            ))}
          </div>
        </div>
        <label className="field">
          <span>{t.balances.amount}</span>
          <input name="amount" inputMode="decimal" autoComplete="off" value={amount} aria-invalid={touched && amountBad} onChange={(e) => setAmount(e.target.value)} placeholder="0" />
          {touched && amountBad ? <span className="field-error">{t.balances.amountInvalid}</span> : <span className="hint">{t.balances.amountHint}</span>}
        </label>
        <label className="field">
          <span>{t.balances.reason}</span>
          <input name="reason" value={reason} maxLength={500} aria-invalid={touched && reasonBad} placeholder={t.balances.reasonPlaceholder} onChange={(e) => setReason(e.target.value)} />
          {touched && reasonBad ? <span className="field-error">{t.balances.reasonRequired}</span> : null}
        </label>
        <div className="adjust-summary">
          <span>
            {t.balances.current}: <b>{formatKopecksExact(balance, locale)}</b>
          </span>
          {after !== null ? <span className={after < 0n ? "negative" : ""}>{t.balances.after(formatKopecksExact(after, locale))}</span> : null}
        </div>
        <div className="hint">{t.balances.once}</div>
        {error ? (
          <div className="notice notice-error" role="alert">
            {error}
          </div>
        ) : null}
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}
