"use client";
// The passengers' average rating on the console's driver card (a dt/dd pair
// of the card's facts): given through the tracking links, read by
// ratings.driver.
import { useQuery } from "@tanstack/react-query";
import { useI18n } from "../i18n";
import { useTRPC } from "../trpc";

export function DriverRatingFacts({ driverId }: { driverId: number }) {
  const { t } = useI18n();
  const trpc = useTRPC();
  const rating = useQuery(trpc.ratings.driver.queryOptions({ driverId }, { staleTime: 60_000 }));
  const data = rating.data;
  return (
    <>
      <dt>{t.ratings.title}</dt>
      <dd data-testid="driver-rating">
        {!data ? (
          <span className="muted">{rating.isError ? t.common.none : t.common.loading}</span>
        ) : data.average === null ? (
          <span className="muted">{t.ratings.none}</span>
        ) : (
          <span aria-label={t.ratings.average(data.average, data.count)}>
            <span aria-hidden="true" className="rating-stars">
              {"★".repeat(Math.round(data.average))}
              {"☆".repeat(5 - Math.round(data.average))}
            </span>{" "}
            {t.ratings.average(data.average, data.count)}
          </span>
        )}
      </dd>
    </>
  );
}
