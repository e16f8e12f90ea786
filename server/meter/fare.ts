// The metered fare: what a METERED rate charges for the distance, the trip's
// minutes and the waiting at the pickup, in integer kopecks. Pure. The
// formula (docs/driver-app.md, "The taximeter"):
//   boarding  = pickUp
//   distance  = round(max(0, km - kmStart) × kmCost)
//   time      = round(trip minutes × minuteCost)
//   waiting   = round(max(0, waiting minutes - freeWaitTime) × waitCost)
//   minimum_added = max(0, minFare - (boarding + distance + time + waiting))
//   fare      = ceil((boarding + distance + time + waiting + minimum_added + extras) / roundTo) × roundTo
// (rounding = the last step's addition). Minutes are exact fractions (seconds / 60).

export interface MeteredRate {
  pickUp: number;
  minFare: number;
  kmCost: number;
  kmStart: number;
  minuteCost: number;
  waitCost: number;
  freeWaitTime: number;
  roundTo: number;
}

export interface MeterReading {
  distanceMetres: number;
  tripSeconds: number;
  waitingSeconds: number;
}

export interface MeteredFare {
  boarding: number;
  distance: number;
  time: number;
  waiting: number;
  extras: number;
  minimumAdded: number;
  rounding: number;
  total: number;
}

export function meteredFare(rate: MeteredRate, reading: MeterReading, extrasKopecks: number): MeteredFare {
  const paidKm = Math.max(0, reading.distanceMetres / 1000 - rate.kmStart);
  const boarding = rate.pickUp;
  const distance = Math.round(paidKm * rate.kmCost);
  const time = Math.round((reading.tripSeconds / 60) * rate.minuteCost);
  const waiting = Math.round(Math.max(0, reading.waitingSeconds / 60 - rate.freeWaitTime) * rate.waitCost);
  const metered = boarding + distance + time + waiting;
  const minimumAdded = Math.max(0, rate.minFare - metered);
  const beforeRounding = metered + minimumAdded + extrasKopecks;
  const step = Math.max(1, rate.roundTo);
  const total = Math.ceil(beforeRounding / step) * step;
  return { boarding, distance, time, waiting, extras: extrasKopecks, minimumAdded, rounding: total - beforeRounding, total };
}
