// A rate as the console's referenceAdmin.rates returns it (amounts in kopecks), read by the specs that change rates.
export interface RateRow {
  id: number;
  serviceId: number;
  queueId: number | null;
  name: string;
  isBasic: boolean;
  kind: "FIXED" | "METERED";
  pickUp: number;
  minFare: number;
  kmCost: number;
  kmStart: number;
  minuteCost: number;
  standCost: number;
  freeStandTime: number;
  waitCost: number;
  freeWaitTime: number;
  roundTo: number;
  startHour: number | null;
  endHour: number | null;
}
