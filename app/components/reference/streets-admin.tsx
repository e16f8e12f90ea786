"use client";
// Streets and public places: search a city's streets, see a street's houses
// with their regions, add a street (or a place) with houses, add houses to
// a street. Houses typed one per line, optionally with coordinates; a house
// without them stands at the street's point. Audited.
import { useState } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { Icon } from "../icons";
import { EmptyState, ErrorNotice, FormModal, PageHeader } from "../ui";
import { toast } from "../toast";
import { errorInfo } from "../errors";
import { useDebounced } from "../use-debounced";
import { CitySelect, FormError, useCities, useFirstCity } from "./common";

const PREFIXES = ["ул.", "пр-т", "пер.", "пл.", "б-р", "ш.", "наб.", "проезд", "туп."];

interface HouseLine {
  number: string;
  lat?: number;
  lon?: number;
}

/** Houses as typed: a line per house ("12", "12к2 55.7512 37.6123"), or a list "1, 3, 5" without coordinates. */
export function parseHouses(text: string): { houses: HouseLine[]; bad: string | null } {
  const houses: HouseLine[] = [];
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    // "12к2 55.7512 37.6123": the last two tokens are coordinates (tokens, not one pattern: linear on any input).
    const tokens = line.split(/[\s;,]+/);
    const lat = tokens.at(-2) ?? "";
    const lon = tokens.at(-1) ?? "";
    if (tokens.length >= 3 && /^-?\d{1,2}\.\d+$/.test(lat) && /^-?\d{1,3}\.\d+$/.test(lon)) {
      houses.push({ number: tokens.slice(0, -2).join(" "), lat: Number(lat), lon: Number(lon) });
      continue;
    }
    for (const part of line.split(/[,;]/)) {
      const n = part.trim();
      if (!n) continue;
      if (n.length > 20 || !/^[\p{L}\p{N}/\- ]+$/u.test(n)) return { houses, bad: line };
      houses.push({ number: n });
    }
  }
  return { houses, bad: null };
}

function NewStreetDialog({ cityId: initialCity, onClose, onCreated }: { cityId: number | ""; onClose: () => void; onCreated: (id: number) => void }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cities = useCities();
  const [cityId, setCityId] = useState<number | "">(initialCity || (cities.data?.[0]?.id ?? ""));
  const city = cities.data?.find((c) => c.id === cityId);
  const [kind, setKind] = useState<"STREET" | "PUBLIC_PLACE">("STREET");
  const [prefix, setPrefix] = useState("ул.");
  const [name, setName] = useState("");
  const [lat, setLat] = useState(city ? String(city.lat) : "");
  const [lon, setLon] = useState(city ? String(city.lon) : "");
  const [houses, setHouses] = useState("");
  const [error, setError] = useState<string | null>(null);
  useFirstCity(cityId, setCityId, (c) => {
    setLat(String(c.lat));
    setLon(String(c.lon));
  });
  const create = useMutation(
    trpc.referenceAdmin.addStreet.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (r) => {
        toast.success(t.refData.streets.created(r.fullName));
        void queryClient.invalidateQueries({ queryKey: trpc.referenceAdmin.streets.pathKey() });
        onCreated(r.id);
        onClose();
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  const submit = () => {
    setError(null);
    if (cityId === "") return;
    const parsed = parseHouses(houses);
    if (parsed.bad) return setError(t.refData.streets.housesInvalid(parsed.bad));
    const la = Number(lat.replace(",", "."));
    const lo = Number(lon.replace(",", "."));
    if (!Number.isFinite(la) || !Number.isFinite(lo) || lat.trim() === "" || lon.trim() === "") return setError(t.refData.regions.problems.badPoint(1));
    create.mutate({ cityId, kind, prefix: kind === "STREET" ? prefix : "", name, lat: la, lon: lo, houses: kind === "STREET" ? parsed.houses : [] });
  };
  return (
    <FormModal title={t.refData.streets.newTitle} onClose={onClose} width={600} onSubmit={submit} pending={create.isPending} submitLabel={t.common.create}>
      <div className="grid-2">
        <label className="field">
          <span>{t.refData.city}</span>
          <CitySelect
            value={cityId}
            onChange={(id) => {
              setCityId(id);
              const c = cities.data?.find((x) => x.id === id);
              if (c) {
                setLat(String(c.lat));
                setLon(String(c.lon));
              }
            }}
          />
        </label>
        <div className="field">
          <span>{t.refData.streets.kind}</span>
          <div className="segmented" role="group" aria-label={t.refData.streets.kind}>
            {(["STREET", "PUBLIC_PLACE"] as const).map((k) => (
              <button key={k} type="button" className={kind === k ? "active" : ""} aria-pressed={kind === k} onClick={() => setKind(k)}>
                {t.refData.streets.kinds[k]}
              </button>
            ))}
          </div>
        </div>
      </div>
      <div className="grid-2" style={{ gridTemplateColumns: kind === "STREET" ? "140px 1fr" : "1fr" }}>
        {kind === "STREET" ? (
          <label className="field">
            <span>{t.refData.streets.prefix}</span>
            <select name="prefix" value={prefix} onChange={(e) => setPrefix(e.target.value)}>
              {PREFIXES.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="field">
          <span>{t.refData.name}</span>
          <input name="name" required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
      </div>
      <div className="field">
        <span>{t.refData.streets.point}</span>
        <div className="grid-2">
          <input name="lat" aria-label={t.refData.regions.lat} inputMode="decimal" value={lat} onChange={(e) => setLat(e.target.value)} />
          <input name="lon" aria-label={t.refData.regions.lon} inputMode="decimal" value={lon} onChange={(e) => setLon(e.target.value)} />
        </div>
      </div>
      {kind === "STREET" ? (
        <label className="field">
          <span>{t.refData.streets.houses}</span>
          <textarea name="houses" rows={5} value={houses} placeholder={"1\n3\n5к1 55.7512 37.6123"} onChange={(e) => setHouses(e.target.value)} />
          <span className="hint">{t.refData.streets.housesHint}</span>
        </label>
      ) : null}
      <FormError error={error} />
      <button type="submit" hidden />
    </FormModal>
  );
}

function StreetDetails({ id }: { id: number }) {
  const { t, locale } = useI18n();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const street = useQuery(trpc.referenceAdmin.street.queryOptions({ id }));
  const [houses, setHouses] = useState("");
  const [error, setError] = useState<string | null>(null);
  const add = useMutation(
    trpc.referenceAdmin.addHouses.mutationOptions({
      meta: { inlineError: true },
      onSuccess: (r) => {
        toast.success(t.refData.streets.housesAdded(r.houses));
        setHouses("");
        void queryClient.invalidateQueries({ queryKey: trpc.referenceAdmin.street.queryKey({ id }) });
        void queryClient.invalidateQueries({ queryKey: trpc.referenceAdmin.streets.pathKey() });
      },
      onError: (e) => setError(errorInfo(e, t).message),
    }),
  );
  if (street.error) {
    return (
      <ErrorNotice error={street.error} onRetry={() => street.refetch()} />
    );
  }
  const s = street.data;
  if (!s) return <div className="muted pad">{t.common.loading}</div>;
  return (
    <div className="card" data-testid="street-details" style={{ display: "flex", flexDirection: "column", gap: 10 }}>
      <div>
        <h2>{s.fullName}</h2>
        <div className="muted small">
          {t.refData.streets.kinds[s.kind]} · {locale === "en" ? s.city.nameEn : s.city.name} · {s.lat.toFixed(5)}, {s.lon.toFixed(5)}
        </div>
      </div>
      {s.kind === "STREET" ? (
        <>
          <div className="table-wrap" style={{ maxHeight: 360 }}>
            <table className="table" data-testid="houses-table">
              <thead>
                <tr>
                  <th>{t.refData.streets.columns.number}</th>
                  <th>{t.refData.streets.columns.region}</th>
                  <th>{t.refData.streets.columns.coordinates}</th>
                </tr>
              </thead>
              <tbody>
                {s.houses.map((h) => (
                  <tr key={h.id} data-house={h.number}>
                    <td className="strong">{h.number}</td>
                    <td>{h.region ? (locale === "en" ? h.region.nameEn : h.region.name) : t.common.none}</td>
                    <td className="mono muted">
                      {h.lat.toFixed(5)}, {h.lon.toFixed(5)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {s.houses.length === 0 ? <EmptyState title={t.refData.streets.noHouses} icon="pin" /> : null}
          </div>
          <form
            className="field"
            onSubmit={(e) => {
              e.preventDefault();
              setError(null);
              const parsed = parseHouses(houses);
              if (parsed.bad) return setError(t.refData.streets.housesInvalid(parsed.bad));
              if (parsed.houses.length) add.mutate({ streetId: s.id, houses: parsed.houses });
            }}
          >
            <span>{t.refData.streets.addHouses}</span>
            <textarea name="newHouses" rows={3} value={houses} placeholder={"2\n4к1 55.7512 37.6123"} onChange={(e) => setHouses(e.target.value)} />
            <span className="hint">{t.refData.streets.housesHint}</span>
            <FormError error={error} />
            <div>
              <button type="submit" className="btn" disabled={add.isPending || houses.trim() === ""}>
                <Icon name="plus" size={16} />
                {t.refData.streets.addHouses}
              </button>
            </div>
          </form>
        </>
      ) : null}
    </div>
  );
}

export function StreetsAdmin() {
  const { t } = useI18n();
  const trpc = useTRPC();
  const cities = useCities();
  const [cityId, setCityId] = useState<number | "">("");
  const [search, setSearch] = useState("");
  const q = useDebounced(search.trim(), 250);
  const [selected, setSelected] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const effectiveCity = cityId || cities.data?.[0]?.id;
  const streets = useQuery(trpc.referenceAdmin.streets.queryOptions({ q, cityId: effectiveCity, limit: 50 }, { enabled: q.length > 0, placeholderData: keepPreviousData }));
  return (
    <>
      <PageHeader title={t.refData.tabs.streets}>
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          <Icon name="plus" size={16} />
          {t.refData.streets.create}
        </button>
      </PageHeader>
      <div className="ref-toolbar">
        <CitySelect value={cityId || (effectiveCity ?? "")} onChange={setCityId} />
        <label className="search">
          <Icon name="search" size={16} />
          <input type="search" value={search} placeholder={t.refData.streets.search} aria-label={t.refData.streets.search} onChange={(e) => setSearch(e.target.value)} />
        </label>
      </div>
      <div className="ref-split">
        <div className="card" style={{ padding: 4 }}>
          {q.length === 0 ? (
            <EmptyState title={t.refData.streets.searchHint} icon="search" />
          ) : streets.data && streets.data.length === 0 ? (
            <EmptyState title={t.newOrder.noStreets} icon="pin" />
          ) : (
            <ul className="ref-list" data-testid="streets-list">
              {streets.data?.map((s) => (
                <li key={s.id}>
                  <button type="button" className={selected === s.id ? "active" : ""} aria-pressed={selected === s.id} data-street={s.fullName} onClick={() => setSelected(s.id)}>
                    <span className="strong">{s.fullName}</span>
                    <span className="muted small">{s.kind === "PUBLIC_PLACE" ? t.refData.streets.kinds.PUBLIC_PLACE : t.refData.regions.houses(s.houses)}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>{selected ? <StreetDetails key={selected} id={selected} /> : <EmptyState title={t.refData.streets.pick} icon="pin" />}</div>
      </div>
      {creating ? (
        <NewStreetDialog
          cityId={cityId}
          onClose={() => setCreating(false)}
          onCreated={(id) => {
            setSelected(id);
          }}
        />
      ) : null}
    </>
  );
}
