"use client";
// The order board: the moderation queue on top, then every order matching
// the filters, newest first, paged by cursor from the server and drawn as a
// virtual list (thousands of rows stay fast). Live: new orders and changes
// arrive over SSE and are patched into the loaded pages within a moment.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useVirtualizer } from "@tanstack/react-virtual";
import { ALL_STATES, codeOf, type OrderState } from "@/shared/orders/states";
import { BOARD_GROUPS, GROUP_STATES, type BoardGroup } from "@/shared/orders/board-filter";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { useLiveEvents } from "../live";
import { useDebounced } from "../use-debounced";
import { Icon } from "../icons";
import { EmptyState, ErrorNotice, Kbd, PageHeader, StateBadge, isTyping } from "../ui";
import { ModerationQueue } from "./moderation-queue";
import { OrderPanel } from "./order-panel";
import { patchBoard, type BoardRow } from "./types";
import { useAlarmSound, useAttention } from "./attention";
import { useNow } from "../use-now";
import { ageOf, formatAge, type Age, type AgeKind, type AgeLimit } from "@/shared/orders/age";
import { isDone, isOrderState } from "@/shared/orders/states";
import { FleetStrip } from "./fleet-strip";
import { sortRows, nextSort, SORTABLE, type BoardSort, type SortKey } from "./board-sort";

const PAGE = 100;
// Compact rows: 15 and more fit a 1366×768 screen (issue 34).
const ROW_HEIGHT = 30;
const FLASH_MS = 2500;

function address(street: string, house: string): string {
  return [street, house].filter(Boolean).join(", ");
}

export function OrderBoard() {
  const { t, fmt, locale, stateTitle } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();

  const [group, setGroup] = useState<BoardGroup>("active");
  const [state, setState] = useState<OrderState | "">("");
  const [serviceId, setServiceId] = useState<number | "">("");
  const [regionId, setRegionId] = useState<number | "">("");
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const filter = useMemo(
    () => ({
      group,
      state: state || undefined,
      serviceId: serviceId || undefined,
      regionId: regionId || undefined,
      q: q || undefined,
    }),
    [group, state, serviceId, regionId, q],
  );

  const board = useInfiniteQuery(
    trpc.orders.board.infiniteQueryOptions(
      { filter, limit: PAGE },
      { getNextPageParam: (last) => last.nextCursor ?? undefined, placeholderData: keepPreviousData },
    ),
  );
  const boardRows = useMemo(() => board.data?.pages.flatMap((p) => p.items) ?? [], [board.data]);
  const counts = useQuery(trpc.orders.counts.queryOptions());
  const moderation = useQuery(trpc.orders.moderation.queryOptions());
  const lookups = useQuery(trpc.reference.lookups.queryOptions(undefined, { staleTime: 5 * 60_000 }));
  const ageLimits = useQuery(trpc.orders.ageLimits.queryOptions(undefined, { staleTime: 60_000 }));
  const limits = useMemo(() => new Map<AgeKind, AgeLimit>((ageLimits.data ?? []).map((l) => [l.kind, l])), [ageLimits.data]);
  const now = useNow(1_000);
  const alarm = useAlarmSound();
  const soundOn = alarm.on;
  const attention = useAttention(alarm.on, alarm.volume);

  // The "need a hand" tab: the orders past their red limit and the map's orders with problems, the longest wait first.
  const [needTab, setNeedTab] = useState(false);
  const trouble = useQuery({ ...trpc.dispatch.trouble.queryOptions(), refetchInterval: 30_000 });
  const needIds = useMemo(
    () => [...new Set([...(attention?.red ?? []), ...(trouble.data ?? []).map((o) => o.id)])].slice(0, 500),
    [attention?.red, trouble.data],
  );
  const needRows = useQuery({
    ...trpc.orders.boardRows.queryOptions({ filter: { group: "all" }, ids: needIds }),
    enabled: needTab,
    placeholderData: keepPreviousData,
    refetchInterval: needTab ? 5_000 : false,
  });
  const [sort, setSort] = useState<BoardSort | null>(null);
  // The moderation strip folds to one line on a short screen (its tab has the count); the dispatcher may unfold it.
  const [moderationFolded, setModerationFolded] = useState(false);
  useEffect(() => {
    // The screen's height is known only in the browser.
    setModerationFolded(window.innerHeight < 900);
  }, []);
  const sortName = (r: BoardRow) => (r.region ? (locale === "en" ? r.region.nameEn : r.region.name) : "");
  const unsorted = useMemo(() => {
    if (!needTab) return boardRows;
    const weight = (r: BoardRow) => {
      const age = ageOf(r, limits, now);
      return (age.level === "red" ? 2e9 : age.level === "amber" ? 1e9 : 0) + (age.kind === "ADVANCE" ? -age.seconds : age.seconds);
    };
    return [...(needRows.data ?? [])].sort((a, b) => weight(b) - weight(a));
  }, [needTab, boardRows, needRows.data, limits, now]);
  // Sorting orders the loaded rows (the board pages newest first from the server).
  const rows = useMemo(
    () => (sort ? sortRows(unsorted, sort, (r) => ageOf(r, limits, now).seconds, sortName) : unsorted),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- sortName follows locale
    [unsorted, sort, limits, now, locale],
  );

  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [flash, setFlash] = useState<ReadonlySet<number>>(new Set());

  // ------------------------------------------------------------ live patching
  const filterRef = useRef(filter);
  useEffect(() => {
    filterRef.current = filter;
  }, [filter]);
  const pending = useRef(new Set<number>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const flush = useCallback(async () => {
    timer.current = null;
    const ids = [...pending.current];
    pending.current.clear();
    if (!ids.length) return;
    const current = filterRef.current;
    void queryClient.invalidateQueries({ queryKey: trpc.orders.counts.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.orders.moderation.queryKey() });
    for (const id of ids) void queryClient.invalidateQueries({ queryKey: trpc.orders.get.queryKey({ id }) });
    // Boards of other filters are refetched when shown again.
    void queryClient.invalidateQueries({ queryKey: trpc.orders.board.pathKey(), refetchType: "none" });
    try {
      const fresh = await queryClient.fetchQuery({ ...trpc.orders.boardRows.queryOptions({ filter: current, ids }), staleTime: 0 });
      queryClient.setQueryData(trpc.orders.board.infiniteQueryKey({ filter: current, limit: PAGE }), (old) => patchBoard(old, new Set(ids), fresh));
      const changed = new Set(fresh.map((r) => r.id));
      if (changed.size) {
        setFlash((prev) => new Set([...prev, ...changed]));
        setTimeout(() => setFlash((prev) => new Set([...prev].filter((id) => !changed.has(id)))), FLASH_MS);
      }
    } catch {
      void queryClient.invalidateQueries({ queryKey: trpc.orders.board.infiniteQueryKey({ filter: current, limit: PAGE }) });
    }
  }, [queryClient, trpc]);

  useLiveEvents((event) => {
    if (event.type === "resync") {
      void queryClient.invalidateQueries({ queryKey: trpc.orders.pathKey() });
      return;
    }
    if (event.type !== "order.created" && event.type !== "order.changed") return;
    pending.current.add(event.orderId);
    timer.current ??= setTimeout(() => void flush(), 100);
  });
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  // ------------------------------------------------------------ virtual list
  const scrollRef = useRef<HTMLDivElement>(null);
  /** The grid itself takes the keyboard (aria-activedescendant names the active row). */
  const gridRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const lastIndex = virtualRows.at(-1)?.index ?? 0;
  useEffect(() => {
    if (lastIndex >= rows.length - 30 && board.hasNextPage && !board.isFetchingNextPage) void board.fetchNextPage();
  }, [lastIndex, rows.length, board]);

  useEffect(() => {
    setActive(0);
    scrollRef.current?.scrollTo({ top: 0 });
  }, [filter]);

  const open = (id: number) => setSelectedId(id);
  const moveActive = (to: number) => {
    const index = Math.max(0, Math.min(rows.length - 1, to));
    setActive(index);
    virtualizer.scrollToIndex(index, { align: "auto" });
  };

  // ------------------------------------------------------------ keys
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && selectedId !== null && !document.querySelector(".modal")) {
        setSelectedId(null);
        gridRef.current?.focus();
        return;
      }
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === "/") {
        e.preventDefault();
        searchRef.current?.focus();
      } else if (e.key === "n" || e.key === "N" || e.key === "т" || e.key === "Т") {
        e.preventDefault();
        router.push("/orders/new");
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [router, selectedId]);

  const onGridKey = (e: React.KeyboardEvent) => {
    // The header's sort buttons take their own Enter and Space.
    if (e.target !== gridRef.current && e.target !== scrollRef.current) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const keys: Record<string, () => void> = {
      ArrowDown: () => moveActive(active + 1),
      ArrowUp: () => moveActive(active - 1),
      PageDown: () => moveActive(active + page),
      PageUp: () => moveActive(active - page),
      Home: () => moveActive(0),
      End: () => moveActive(rows.length - 1),
      Enter: () => {
        const row = rows[active];
        if (row) open(row.id);
      },
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };

  const name = (x: { name: string; nameEn: string } | null) => (x ? (locale === "en" ? x.nameEn : x.name) : "");
  const groupStates = GROUP_STATES[group] ?? ALL_STATES;
  const countOf = (g: BoardGroup) => (g === "done" || g === "all" ? undefined : counts.data?.[g]);
  // Hidden during a search: the rows found are what the dispatcher looks for.
  const showModeration = group !== "moderation" && group !== "done" && !search.trim();

  return (
    <div className={`page page-board${selectedId !== null ? " with-panel" : ""}`}>
      <div className="board-main">
        <PageHeader
          title={t.board.title}
          sub={
            <span className="muted small">
              {t.board.count(rows.length, Boolean(board.hasNextPage))} · {t.board.hints}
            </span>
          }
        >
          {attention && attention.needHand > 0 ? (
            <span className="pill pill-danger" role="status" data-testid="need-hand">
              {t.age.needHand(attention.needHand)}
            </span>
          ) : null}
          <button
            type="button"
            className={`btn btn-ghost${soundOn ? "" : " muted"}`}
            aria-pressed={soundOn}
            title={soundOn ? t.age.soundOn : t.age.soundOff}
            onClick={() => alarm.setOn(!soundOn)}
          >
            <Icon name={soundOn ? "bell" : "bellOff"} size={16} />
            {t.age.sound}
          </button>
          {soundOn ? (
            <input
              type="range"
              className="alarm-volume"
              min={0}
              max={100}
              step={10}
              value={alarm.volume}
              aria-label={t.shift.volume}
              title={`${t.shift.volume}: ${alarm.volume}`}
              onChange={(e) => alarm.setVolume(Number(e.target.value))}
            />
          ) : null}
          <Link href="/orders/new" className="btn btn-primary" aria-keyshortcuts="N">
            <Icon name="plus" size={16} />
            {t.nav.newOrder}
            <Kbd>N</Kbd>
          </Link>
        </PageHeader>

        <div className="tabs" role="tablist" aria-label={t.board.state}>
          {BOARD_GROUPS.map((g) => (
            <button
              key={g}
              type="button"
              role="tab"
              aria-selected={!needTab && group === g}
              className={`tab${!needTab && group === g ? " active" : ""}${g === "moderation" && (countOf(g) ?? 0) > 0 ? " tab-alert" : ""}`}
              onClick={() => {
                setGroup(g);
                setState("");
                setNeedTab(false);
              }}
              data-group={g}
            >
              {t.board.groups[g]}
              {countOf(g) !== undefined ? <span className="tab-count">{countOf(g)}</span> : null}
            </button>
          ))}
          <button
            type="button"
            role="tab"
            aria-selected={needTab}
            className={`tab${needTab ? " active" : ""}${needIds.length > 0 ? " tab-alert" : ""}`}
            onClick={() => setNeedTab(true)}
            data-group="attention"
          >
            {t.age.tab}
            <span className="tab-count">{needIds.length}</span>
          </button>
        </div>

        <div className="filters">
          <label className="search">
            <Icon name="search" size={16} />
            <input
              ref={searchRef}
              type="search"
              value={search}
              placeholder={t.board.search}
              aria-label={t.board.search}
              onChange={(e) => setSearch(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "ArrowDown" || e.key === "Enter") {
                  e.preventDefault();
                  gridRef.current?.focus();
                  moveActive(0);
                }
                if (e.key === "Escape") setSearch("");
              }}
            />
            <Kbd>/</Kbd>
          </label>
          <select aria-label={t.board.state} value={state} onChange={(e) => setState(e.target.value as OrderState | "")}>
            <option value="">{t.board.anyState}</option>
            {groupStates.map((s) => (
              <option key={s} value={s}>
                {codeOf(s)} · {stateTitle(s)}
              </option>
            ))}
          </select>
          <select aria-label={t.board.service} value={serviceId} onChange={(e) => setServiceId(e.target.value ? Number(e.target.value) : "")}>
            <option value="">{t.board.anyService}</option>
            {lookups.data?.services.map((s) => (
              <option key={s.id} value={s.id}>
                {name(s)}
              </option>
            ))}
          </select>
          <select aria-label={t.board.region} value={regionId} onChange={(e) => setRegionId(e.target.value ? Number(e.target.value) : "")}>
            <option value="">{t.board.anyRegion}</option>
            {lookups.data?.regions.map((r) => (
              <option key={r.id} value={r.id}>
                {name(r)}
              </option>
            ))}
          </select>
          {state || serviceId || regionId || search ? (
            <button
              type="button"
              className="btn btn-ghost"
              onClick={() => {
                setState("");
                setServiceId("");
                setRegionId("");
                setSearch("");
              }}
            >
              {t.common.reset}
            </button>
          ) : null}
        </div>

        <FleetStrip />
        {showModeration && moderation.data ? (
          <ModerationQueue
            items={moderation.data.items}
            total={moderation.data.total}
            onOpen={open}
            folded={moderationFolded}
            onToggle={() => setModerationFolded(!moderationFolded)}
          />
        ) : null}

        {/* Notices stand outside the grid: a grid holds rows only (axe: aria-required-children). */}
        {board.error ? <ErrorNotice error={board.error} onRetry={() => board.refetch()} testId="board-error" /> : null}
        {board.isLoading ? <div className="muted pad" role="status">{t.common.loading}</div> : null}
        {!board.isLoading && rows.length === 0 && !board.error ? <EmptyState title={t.board.empty} text={t.board.emptyHint} /> : null}
        <div
          ref={gridRef}
          className="grid"
          role="grid"
          tabIndex={0}
          onKeyDown={onGridKey}
          aria-activedescendant={rows[active] ? `order-row-${rows[active].id}` : undefined}
          aria-rowcount={rows.length + 1}
          aria-label={t.board.title}
          data-testid="order-grid"
        >
          <div className="grid-row grid-head" role="row" aria-rowindex={1}>
            {(["id", "age", "time", "state", "phone", "from", "to", "service", "region", "driver", "amount"] as const).map((c) => {
              const sortable = (SORTABLE as readonly string[]).includes(c);
              const dir = sort?.key === c ? sort.dir : null;
              return (
                <div
                  key={c}
                  role="columnheader"
                  className={`cell cell-${c}`}
                  aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : sortable ? "none" : undefined}
                >
                  {sortable ? (
                    <button
                      type="button"
                      className="sort-btn"
                      title={t.shift.sortBy(t.board.columns[c])}
                      onClick={() => {
                        setSort(nextSort(sort, c as SortKey));
                        setActive(0);
                      }}
                    >
                      {t.board.columns[c]}
                      <span className="sort-mark" aria-hidden="true">
                        {dir === "asc" ? "▲" : dir === "desc" ? "▼" : ""}
                      </span>
                    </button>
                  ) : (
                    t.board.columns[c]
                  )}
                </div>
              );
            })}
          </div>
          {/* A scrolled region a keyboard can reach (axe: scrollable-region-focusable); its keys are the grid's. */}
          <div ref={scrollRef} className="grid-body" role="rowgroup" tabIndex={0}>
            <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
              {virtualRows.map((v) => {
                const row = rows[v.index];
                if (!row) return null;
                return (
                  <Row
                    key={row.id}
                    row={row}
                    top={v.start}
                    rowIndex={v.index + 2}
                    active={v.index === active}
                    selected={row.id === selectedId}
                    flash={flash.has(row.id)}
                    onClick={() => {
                      setActive(v.index);
                      open(row.id);
                    }}
                    name={name}
                    fmt={fmt}
                    preorderLabel={t.board.preorderAt}
                    age={isOrderState(row.state) && isDone(row.state) ? null : ageOf(row, limits, now)}
                    ageTitle={(age) => ageTitleOf(age, row, t, fmt)}
                  />
                );
              })}
            </div>
          </div>
        </div>
        {board.isFetchingNextPage ? <div className="muted small pad">{t.common.loading}</div> : null}
      </div>
      {selectedId !== null ? <OrderPanel key={selectedId} id={selectedId} onClose={() => setSelectedId(null)} /> : null}
    </div>
  );
}

interface RowProps {
  row: BoardRow;
  top: number;
  /** 1-based among the grid's rows, the header first (the list is virtual). */
  rowIndex: number;
  active: boolean;
  selected: boolean;
  flash: boolean;
  onClick: () => void;
  name: (x: { name: string; nameEn: string } | null) => string;
  fmt: ReturnType<typeof useI18n>["fmt"];
  preorderLabel: (time: string) => string;
  age: Age | null;
  ageTitle: (age: Age) => string;
}

function ageTitleOf(age: Age, row: BoardRow, t: ReturnType<typeof useI18n>["t"], fmt: ReturnType<typeof useI18n>["fmt"]): string {
  const kind = age.kind ? `${t.age.kinds[age.kind]}: ` : "";
  const text = age.kind === "ADVANCE" ? t.age.untilPickup(formatAge(age.seconds)) : t.age.inState(formatAge(age.seconds), fmt.time(row.stateAt));
  return `${kind}${text} — ${t.age.levels[age.level]}`;
}

function Row({ row, top, rowIndex, active, selected, flash, onClick, name, fmt, preorderLabel, age, ageTitle }: RowProps) {
  return (
    <div
      id={`order-row-${row.id}`}
      role="row"
      aria-rowindex={rowIndex}
      aria-selected={selected}
      data-order-id={row.id}
      data-state={row.state}
      data-age-level={age?.level}
      className={`grid-row${age && age.level !== "ok" ? ` age-${age.level}` : ""}${active ? " active" : ""}${selected ? " selected" : ""}${flash ? " flash" : ""}`}
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
      onClick={onClick}
    >
      <div role="gridcell" className="cell cell-id mono">
        {row.id}
      </div>
      <div role="gridcell" className={`cell cell-age mono${age ? ` age-cell-${age.level}` : ""}`} title={age ? ageTitle(age) : undefined}>
        {age ? formatAge(age.seconds) : ""}
      </div>
      <div role="gridcell" className="cell cell-time mono" title={fmt.dateTime(row.createdAt)}>
        {row.preOrderTime ? (
          <span className="preorder" title={preorderLabel(fmt.dateTime(row.preOrderTime))}>
            <Icon name="clock" size={12} />
            {fmt.when(row.preOrderTime)}
          </span>
        ) : (
          fmt.when(row.createdAt)
        )}
      </div>
      <div role="gridcell" className="cell cell-state">
        <StateBadge state={row.state} withCode />
      </div>
      <div role="gridcell" className="cell cell-phone mono">
        {fmt.phone(row.phone)}
      </div>
      <div role="gridcell" className="cell cell-from" title={row.comment || undefined}>
        {address(row.street, row.house)}
        {row.comment ? <span className="comment-mark" aria-hidden="true"> ✎</span> : null}
      </div>
      <div role="gridcell" className="cell cell-to">
        {row.dst || address(row.dstStreet, row.dstHouse)}
      </div>
      <div role="gridcell" className="cell cell-service">
        {name(row.service)}
      </div>
      <div role="gridcell" className="cell cell-region">
        {name(row.region)}
      </div>
      <div role="gridcell" className="cell cell-driver mono strong">
        {row.driver?.callSign ?? ""}
      </div>
      <div role="gridcell" className="cell cell-amount num">
        {fmt.money(row.amount)}
      </div>
    </div>
  );
}
