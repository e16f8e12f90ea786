// The consoles' coalesced live map on the wire (server/events/driver-moves.ts):
// each car changed since the last message as a tuple, not an object, so a
// second of a 10,000-car fleet (about 2,000 cars) is a small message that
// serialises in one pass. The console turns each back into a change.
export interface DriverChange {
  driverId: number;
  callSign: string;
  state: string;
  lat: number | null;
  lon: number | null;
  speed: number;
  bearing: number;
  regionId: number | null;
}

/** [driverId, callSign, state, lat, lon, speed, bearing, regionId] */
export type DriverRow = [number, string, string, number | null, number | null, number, number, number | null];

export function toDriverRow(e: DriverChange): DriverRow {
  return [e.driverId, e.callSign, e.state, e.lat, e.lon, e.speed, e.bearing, e.regionId];
}

export function fromDriverRow(r: DriverRow): DriverChange {
  return { driverId: r[0], callSign: r[1], state: r[2], lat: r[3], lon: r[4], speed: r[5], bearing: r[6], regionId: r[7] };
}
