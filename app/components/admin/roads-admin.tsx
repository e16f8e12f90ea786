"use client";
// The cities' road networks (stored, and held in this instance's memory) and
// the OpenStreetMap import history.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc";
import { useI18n } from "../i18n";
import { ErrorNotice, PageHeader } from "../ui";

export function RoadsAdmin() {
  const { t, fmt } = useI18n();
  const trpc = useTRPC();
  const stats = useQuery(trpc.admin.roads.queryOptions());
  return (
    <>
      <PageHeader title={t.roads.title} />
      {stats.error ? (
        <ErrorNotice error={stats.error} onRetry={() => stats.refetch()} />
      ) : null}
      <div className="table-wrap">
        <table className="table" data-testid="roads-table">
          <thead>
            <tr>
              <th>{t.roads.city}</th>
              <th className="num">{t.roads.nodes}</th>
              <th className="num">{t.roads.segments}</th>
              <th className="num">{t.roads.oneway}</th>
              <th className="num">{t.roads.km}</th>
              <th>{t.roads.inMemory}</th>
            </tr>
          </thead>
          <tbody>
            {(stats.data?.cities ?? []).map((c) => (
              <tr key={c.cityId}>
                <td>
                  <div className="strong">{c.city}</div>
                  <div className="muted small">{Object.entries(c.byClass).map(([cls, n]) => `${cls.toLowerCase()} ${n}`).join(" · ")}</div>
                </td>
                <td className="num">{c.nodes}</td>
                <td className="num">{c.segments}</td>
                <td className="num">{c.onewaySegments}</td>
                <td className="num">{c.km}</td>
                <td>{c.inMemory.segments > 0 ? `${c.inMemory.segments}${c.inMemory.current ? "" : ` (${t.roads.stale})`}` : t.roads.none}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>{t.roads.imports}</h3>
      {stats.data && stats.data.imports.length === 0 ? <p className="muted">{t.roads.noImports}</p> : null}
      {stats.data && stats.data.imports.length > 0 ? (
        <div className="table-wrap">
          <table className="table" data-testid="imports-table">
            <thead>
              <tr>
                <th>{t.roads.when}</th>
                <th>{t.roads.city}</th>
                <th>{t.roads.file}</th>
                <th className="num">{t.roads.segments}</th>
                <th className="num">{t.roads.streets}</th>
                <th className="num">{t.roads.houses}</th>
                <th className="num">{t.roads.places}</th>
                <th className="num">{t.roads.seconds}</th>
                <th className="num">{t.roads.memory}</th>
              </tr>
            </thead>
            <tbody>
              {stats.data.imports.map((i) => (
                <tr key={i.id}>
                  <td>{fmt.dateTime(i.finishedAt ?? i.startedAt)}</td>
                  <td>{i.city}</td>
                  <td>{i.file}</td>
                  <td className="num">{i.segments}</td>
                  <td className="num">{i.streets}</td>
                  <td className="num">{i.houses}</td>
                  <td className="num">{i.places}</td>
                  <td className="num">{i.seconds.toFixed(1)}</td>
                  <td className="num">{i.peakMemoryMb}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
