"use client";
// Regions (parking areas) of a city: pick one in the list or on the map and
// edit its polygon by dragging vertices (a "+" in the middle of a side adds
// one, right click removes one) or by typing coordinates in the table; or
// draw a new region by clicking on the map. The polygon is checked while
// editing (a simple polygon: no crossing sides) and again by the server.
// Saving re-derives the regions of the houses it covers; the region cache
// is forgotten. Audited.
import dynamic from "next/dynamic";
import { useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MAX_POLYGON_POINTS, parsePolygonText, polygonProblem, type PolygonProblem } from "@/shared/geometry/polygon";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { Icon } from "../icons";
import { EmptyState, ErrorNotice, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import { CitySelect, FormError, useCities } from "./common";
import type { RegionMapProps } from "./region-map";

const RegionMap = dynamic<RegionMapProps>(() => import("./region-map").then((m) => m.RegionMap), { ssr: false, loading: () => <div className="map-loading">…</div> });

interface Row {
  lat: string;
  lon: string;
}

interface Draft {
  id: number | null;
  name: string;
  nameEn: string;
  rows: Row[];
  /** what was saved, to tell unsaved changes */
  original: string;
}

function num(text: string): number | null {
  const v = Number(text.trim().replace(",", "."));
  return text.trim() === "" || !Number.isFinite(v) ? null : v;
}

function rowsOf(polygon: ReadonlyArray<readonly [number, number]>): Row[] {
  return polygon.map(([lat, lon]) => ({ lat: String(lat), lon: String(lon) }));
}

function snapshot(d: Pick<Draft, "name" | "nameEn" | "rows">): string {
  return JSON.stringify([d.name, d.nameEn, d.rows]);
}

function badVerticesOf(problem: PolygonProblem | null, n: number): number[] {
  if (!problem) return [];
  if (problem.code === "badPoint" || problem.code === "duplicate") return [problem.index];
  if (problem.code === "crossing") return [problem.a, (problem.a + 1) % n, problem.b, (problem.b + 1) % n];
  return [];
}

export function RegionsAdmin() {
  const { t, locale } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cities = useCities();
  const [cityPick, setCityPick] = useState<number | "">("");
  const cityId = cityPick || cities.data?.[0]?.id;
  const city = cities.data?.find((c) => c.id === cityId);
  const regions = useQuery(trpc.referenceAdmin.regions.queryOptions({ cityId }, { enabled: cityId !== undefined }));
  const tileUrl = useQuery(trpc.referenceAdmin.tileUrl.queryOptions(undefined, { staleTime: Infinity }));
  const basemap = useQuery(trpc.map.basemap.queryOptions({ cityId: cityId ?? 0 }, { enabled: cityId !== undefined && tileUrl.data === "", staleTime: Infinity }));
  const [draft, setDraft] = useState<Draft | null>(null);
  const [drawing, setDrawing] = useState(false);
  const [focusKey, setFocusKey] = useState("");
  const [paste, setPaste] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const points = useMemo(() => (draft ? draft.rows.map((r): [number, number] | null => (num(r.lat) === null || num(r.lon) === null ? null : [num(r.lat)!, num(r.lon)!])) : []), [draft]);
  const problem = useMemo(() => (draft ? polygonProblem(points.map((p) => p ?? [Number.NaN, Number.NaN])) : null), [draft, points]);
  const bad = useMemo(() => badVerticesOf(problem, points.length), [problem, points.length]);
  const dirty = draft !== null && snapshot(draft) !== draft.original;

  const problemText = (p: PolygonProblem): string => {
    const pr = t.refData.regions.problems;
    switch (p.code) {
      case "tooFew":
        return pr.tooFew;
      case "tooMany":
        return pr.tooMany(p.max);
      case "badPoint":
        return pr.badPoint(p.index + 1);
      case "duplicate":
        return pr.duplicate(p.index + 1);
      case "crossing":
        return pr.crossing(p.a + 1, p.b + 1);
      case "flat":
        return pr.flat;
    }
  };

  const open = (id: number, force = false) => {
    if (!force && dirty && !window.confirm(t.refData.regions.unsaved)) return;
    const r = regions.data?.find((x) => x.id === id);
    if (!r) return;
    const rows = rowsOf(r.polygon);
    setDraft({ id: r.id, name: r.name, nameEn: r.nameEn, rows, original: snapshot({ name: r.name, nameEn: r.nameEn, rows }) });
    setDrawing(false);
    setError(null);
    setPaste(null);
    setFocusKey(`${r.id}-${Date.now()}`);
  };

  const startNew = () => {
    if (dirty && !window.confirm(t.refData.regions.unsaved)) return;
    setDraft({ id: null, name: "", nameEn: "", rows: [], original: snapshot({ name: "", nameEn: "", rows: [] }) });
    setDrawing(true);
    setError(null);
    setPaste(null);
  };

  const setRows = (update: (rows: Row[]) => Row[]) => setDraft((d) => (d ? { ...d, rows: update(d.rows) } : d));
  const setPoint = (i: number, p: [number, number]) => setRows((rows) => rows.map((r, k) => (k === i ? { lat: String(p[0]), lon: String(p[1]) } : r)));

  const save = useMutation(
    trpc.referenceAdmin.saveRegion.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (r) => {
        toast.success(t.refData.saved);
        if (r.housesMoved > 0) toast.info(t.refData.regions.housesMoved(r.housesMoved));
        void queryClient.invalidateQueries({ queryKey: trpc.referenceAdmin.regions.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.reference.lookups.queryKey() });
        setDraft((d) => {
          if (!d) return d;
          const rows = rowsOf(r.polygon);
          return { ...d, id: r.id, rows, original: snapshot({ name: d.name, nameEn: d.nameEn, rows }) };
        });
        setDrawing(false);
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );

  const submit = () => {
    setError(null);
    if (!draft || cityId === undefined || problem) return;
    save.mutate({ id: draft.id ?? undefined, cityId, name: draft.name, nameEn: draft.nameEn, polygon: points.filter((p): p is [number, number] => p !== null) });
  };

  const regionName = (r: { name: string; nameEn: string }) => (locale === "en" ? r.nameEn : r.name);
  const title = draft ? (draft.id ? t.refData.regions.editTitle(draft.name || "…") : t.refData.regions.newTitle) : t.refData.tabs.regions;

  return (
    <>
      <PageHeader title={t.refData.tabs.regions}>
        <CitySelect
          value={cityId ?? ""}
          onChange={(id) => {
            if (dirty && !window.confirm(t.refData.regions.unsaved)) return;
            setCityPick(id);
            setDraft(null);
            setDrawing(false);
          }}
        />
        <button type="button" className="btn btn-primary" onClick={startNew}>
          <Icon name="plus" size={16} />
          {t.refData.regions.create}
        </button>
      </PageHeader>
      {regions.error ? (
        <ErrorNotice error={regions.error} onRetry={() => regions.refetch()} />
      ) : null}
      <div className="region-editor">
        <div className="map-frame">
          {regions.data && tileUrl.data !== undefined ? (
            <RegionMap
              viewKey={String(cityId ?? "")}
              focusKey={focusKey}
              tileUrl={tileUrl.data}
              center={city ? [city.lat, city.lon] : [55.75, 37.62]}
              streets={basemap.data?.streets ?? []}
              regions={regions.data.map((r) => ({ id: r.id, name: regionName(r), polygon: r.polygon }))}
              editingId={draft?.id ?? null}
              points={points}
              badVertices={bad}
              drawing={drawing}
              onMove={setPoint}
              onInsert={(after, p) => setRows((rows) => (rows.length >= MAX_POLYGON_POINTS ? rows : [...rows.slice(0, after + 1), { lat: String(p[0]), lon: String(p[1]) }, ...rows.slice(after + 1)]))}
              onAdd={(p) => setRows((rows) => (rows.length >= MAX_POLYGON_POINTS ? rows : [...rows, { lat: String(p[0]), lon: String(p[1]) }]))}
              onRemove={(i) => setRows((rows) => rows.filter((_, k) => k !== i))}
              onSelectRegion={(id) => open(id)}
              removeLabel={t.refData.regions.removePoint}
            />
          ) : (
            <div className="map-loading">{t.common.loading}</div>
          )}
          {drawing ? <div className="map-note">{t.refData.regions.drawHint}</div> : null}
        </div>
        <div className="region-side">
          {draft ? (
            <div className="card" data-testid="region-form" style={{ display: "flex", flexDirection: "column", gap: 10 }}>
              <div style={{ display: "flex", justifyContent: "space-between", alignItems: "center", gap: 8 }}>
                <h2>{title}</h2>
                {dirty ? <span className="pill pill-warn">{t.refData.regions.unsaved}</span> : null}
              </div>
              <div className="grid-2">
                <label className="field">
                  <span>{t.refData.name}</span>
                  <input name="name" required value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
                </label>
                <label className="field">
                  <span>{t.refData.nameEn}</span>
                  <input name="nameEn" required value={draft.nameEn} onChange={(e) => setDraft({ ...draft, nameEn: e.target.value })} />
                </label>
              </div>
              <div className="field">
                <span>
                  {t.refData.regions.points} ({draft.rows.length})
                </span>
                <span className="hint">{drawing ? t.refData.regions.drawHint : t.refData.regions.pointsHint}</span>
              </div>
              <div style={{ maxHeight: 300, overflow: "auto" }}>
                <table className="vertex-table" data-testid="vertex-table">
                  <thead>
                    <tr>
                      <th>№</th>
                      <th>{t.refData.regions.lat}</th>
                      <th>{t.refData.regions.lon}</th>
                      <th />
                    </tr>
                  </thead>
                  <tbody>
                    {draft.rows.map((r, i) => (
                      <tr key={i} className={bad.includes(i) ? "bad" : ""} data-vertex-row={i + 1}>
                        <td className="mono">{i + 1}</td>
                        <td>
                          <input
                            name={`lat-${i + 1}`}
                            aria-label={`${t.refData.regions.lat} ${i + 1}`}
                            inputMode="decimal"
                            value={r.lat}
                            aria-invalid={num(r.lat) === null || bad.includes(i)}
                            onChange={(e) => setRows((rows) => rows.map((x, k) => (k === i ? { ...x, lat: e.target.value } : x)))}
                          />
                        </td>
                        <td>
                          <input
                            name={`lon-${i + 1}`}
                            aria-label={`${t.refData.regions.lon} ${i + 1}`}
                            inputMode="decimal"
                            value={r.lon}
                            aria-invalid={num(r.lon) === null || bad.includes(i)}
                            onChange={(e) => setRows((rows) => rows.map((x, k) => (k === i ? { ...x, lon: e.target.value } : x)))}
                          />
                        </td>
                        <td>
                          <button type="button" className="icon-btn" aria-label={t.refData.regions.removePoint(i + 1)} title={t.refData.regions.removePoint(i + 1)} onClick={() => setRows((rows) => rows.filter((_, k) => k !== i))}>
                            <Icon name="close" size={14} />
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div className="row-actions">
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => {
                    const last = points.at(-1) ?? (city ? [city.lat, city.lon] : null);
                    setRows((rows) => [...rows, last ? { lat: String(Number((last[0] + 0.002).toFixed(6))), lon: String(Number((last[1] + 0.002).toFixed(6))) } : { lat: "", lon: "" }]);
                  }}
                >
                  <Icon name="plus" size={14} />
                  {t.refData.regions.addPoint}
                </button>
                <button type="button" className="btn btn-small" aria-pressed={drawing} onClick={() => setDrawing((d) => !d)}>
                  <Icon name="pin" size={14} />
                  {drawing ? t.refData.regions.finishDrawing : t.refData.regions.draw}
                </button>
                <button type="button" className="btn btn-small" onClick={() => setPaste(paste === null ? draft.rows.map((r) => `${r.lat}, ${r.lon}`).join("\n") : null)}>
                  {t.refData.regions.paste}
                </button>
              </div>
              {paste !== null ? (
                <div className="field">
                  <textarea name="paste" rows={6} value={paste} onChange={(e) => setPaste(e.target.value)} className="mono" />
                  <span className="hint">{t.refData.regions.pasteHint}</span>
                  <div>
                    <button
                      type="button"
                      className="btn btn-small"
                      onClick={() => {
                        const parsed = parsePolygonText(paste);
                        if (!parsed) return setError(t.refData.regions.pasteInvalid);
                        setError(null);
                        setRows(() => rowsOf(parsed));
                        setPaste(null);
                      }}
                    >
                      {t.refData.regions.pasteApply}
                    </button>
                  </div>
                </div>
              ) : null}
              <div className={`region-check ${problem ? "bad" : "ok"}`} role="status" data-testid="polygon-check">
                <Icon name={problem ? "close" : "check"} size={16} />
                {problem ? problemText(problem) : t.refData.regions.valid}
              </div>
              <FormError error={error} />
              <div className="row-actions" style={{ justifyContent: "flex-end" }}>
                {dirty ? (
                  <button type="button" className="btn" onClick={() => (draft.id ? open(draft.id, true) : setDraft(null))}>
                    {t.refData.regions.discard}
                  </button>
                ) : null}
                <button type="button" className="btn btn-primary" onClick={submit} disabled={save.isPending || problem !== null || !draft.name.trim() || !draft.nameEn.trim()}>
                  {t.common.save}
                </button>
              </div>
            </div>
          ) : (
            <div className="card">
              <EmptyState title={t.refData.regions.pick} icon="map" />
            </div>
          )}
          <div className="card" style={{ padding: 4 }}>
            <h3 style={{ padding: "8px 10px 0" }}>{t.refData.regions.list}</h3>
            <ul className="region-list" data-testid="region-list">
              {regions.data?.map((r) => (
                <li key={r.id}>
                  <button type="button" className={draft?.id === r.id ? "active" : ""} aria-pressed={draft?.id === r.id} data-region={r.name} onClick={() => open(r.id)}>
                    <span>{regionName(r)}</span>
                    <span className="muted small">{t.refData.regions.houses(r._count.houses)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </>
  );
}
