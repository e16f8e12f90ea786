// The fare arithmetic, in integer kopecks. Pure: the estimate gathers the
// inputs, this computes the breakdown.
import type { RateRow } from "./rates";

export interface FareInput {
  rate: RateRow;
  distanceMetres: number;
  routeSeconds: number;
  extras: Array<{ id: number; price: number; count: number }>;
  /** Demand markup in percent of the trip part. */
  markupPercent: number;
  /** Bonuses the client has (1 bonus = 1 rouble) and the share they may pay. */
  bonusAvailable: number;
  bonusMaxPercent: number;
  useBonuses: boolean;
}

export interface FareBreakdown {
  rateId: number;
  pickUp: number;
  distanceCost: number;
  timeCost: number;
  /** pick-up + distance + time, raised to the rate's minimum */
  trip: number;
  loadMarkup: number;
  loadMarkupPercent: number;
  extras: number;
  bonusUsed: number;
  /** what the client pays */
  total: number;
}

function roundUp(value: number, step: number): number {
  return step > 1 ? Math.ceil(value / step) * step : Math.ceil(value);
}

export function computeFare(input: FareInput): FareBreakdown {
  const { rate } = input;
  const km = input.distanceMetres / 1000;
  const paidKm = Math.max(0, km - rate.kmStart);
  const distanceCost = Math.round(paidKm * rate.kmCost);
  const timeCost = Math.round((input.routeSeconds / 60) * rate.minuteCost);
  const trip = Math.max(rate.minFare, rate.pickUp + distanceCost + timeCost);
  const loadMarkup = Math.round((trip * input.markupPercent) / 100);
  const extras = input.extras.reduce((sum, e) => sum + e.price * e.count, 0);
  const beforeBonus = roundUp(trip + loadMarkup + extras, rate.roundTo);
  let bonusUsed = 0;
  if (input.useBonuses && input.bonusAvailable > 0) {
    const maxKopecks = Math.floor((beforeBonus * input.bonusMaxPercent) / 100);
    bonusUsed = Math.min(input.bonusAvailable, Math.floor(maxKopecks / 100));
  }
  return {
    rateId: rate.id,
    pickUp: rate.pickUp,
    distanceCost,
    timeCost,
    trip,
    loadMarkup,
    loadMarkupPercent: input.markupPercent,
    extras,
    bonusUsed,
    total: beforeBonus - bonusUsed * 100,
  };
}
