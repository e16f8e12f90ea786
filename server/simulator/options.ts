// The simulation's options and their defaults, and the other actors it runs. Split out of engine.ts.
import type { TransportOptions } from "./http";
import type { Engine } from "./engine";

export interface SimulationOptions {
  /** Where the product is, e.g. http://127.0.0.1:3000 */
  baseUrl: string;
  /** A dispatch API key: the passengers' orders are made with it. */
  apiKey: string;
  /** The driver app provisioning key (issues the simulated drivers' app keys). */
  provisioningKey: string;
  /** How many drivers to play (the first of the city by call sign). */
  drivers?: number;
  /** Passenger orders per simulated minute (a steady rate). */
  ordersPerMinute?: number;
  /** Simulated seconds per real second. */
  speedUp?: number;
  seed?: number;
  /** Radius in km around the city's centre where drivers and passengers live. */
  cityKm?: number;
  /** The city (default: the city of the first service). */
  cityId?: number;
  /** Simulated seconds per tick (default: the speed-up, between 1 and 60). */
  tickSeconds?: number;
  moderationShare?: number;
  advanceShare?: number;
  advanceLeadMinutes?: [number, number];
  /** Minutes a passenger waits for a driver to take the order before cancelling. */
  patienceMinutes?: [number, number];
  /** Share of passengers who cancel after a driver took the order. */
  cancelShare?: number;
  /** Share of passengers who do not come out. */
  noShowShare?: number;
  /** Share of orders a driver gives back after taking them. */
  driverRejectShare?: number;
  /** Share of automatic offers a driver lets time out (reads, never answers). */
  driverIgnoreShare?: number;
  shiftMinutes?: [number, number];
  breakMinutes?: [number, number];
  /** Share of the drivers who go on shift at the start (the rest later). */
  onShiftShare?: number;
  /** Print a report line every this many simulated minutes (0: never). */
  reportEveryMinutes?: number;
  /** Radius in km of the offers a free driver looks at. */
  offerRadiusKm?: number;
  /** The share of region hints (GET /hint) a free driver follows, driving toward the target (0: never asks). */
  hintFollowShare?: number;
  log?: (line: string) => void;
  verbose?: boolean;
  /** Other actors run every tick after the drivers (the exchange participant). */
  participants?: Participant[];
  /** HTTPS: an extra authority to trust, or (loopback only) no certificate checks. */
  transport?: TransportOptions;
}

export type ResolvedOptions = Required<Omit<SimulationOptions, "cityId" | "log" | "participants" | "transport">> & Pick<SimulationOptions, "cityId" | "transport">;

export const DEFAULT_OPTIONS: Omit<ResolvedOptions, "baseUrl" | "apiKey" | "provisioningKey" | "tickSeconds"> = {
  drivers: 40,
  ordersPerMinute: 2,
  speedUp: 1,
  seed: 1,
  cityKm: 8,
  moderationShare: 0.05,
  advanceShare: 0.1,
  advanceLeadMinutes: [20, 90],
  patienceMinutes: [8, 20],
  cancelShare: 0.05,
  noShowShare: 0.03,
  driverRejectShare: 0.03,
  driverIgnoreShare: 0.04,
  shiftMinutes: [180, 480],
  breakMinutes: [20, 60],
  onShiftShare: 0.85,
  reportEveryMinutes: 5,
  offerRadiusKm: 4,
  hintFollowShare: 0,
  verbose: false,
};

/** Another actor of the simulated city (the second exchange participant). */
export interface Participant {
  tick: (engine: Engine) => Promise<void>;
  /** Unfinished work the drain waits for. */
  open?: () => number;
  report?: () => string;
}
