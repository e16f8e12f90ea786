// Our drivers on orders bought on the exchange report their state to it
// (POST /driver/update, as the reference describes): data.id — our driver's
// id (our exchange knows our drivers by call sign; the reference's exchange
// by the id of the Driver resource our GET /driver and POST /drivers give,
// which is this one); data.attributes — callSign, latitude, longitude,
// status (the code of the order the driver executes), speed, bearing.
// A driver is reported when its position or the order's status changed
// since the last report, at most every EXCHANGE_DRIVER_REPORT_SECONDS. A
// position is not worth keeping: a report that fails is not retried (the
// next change sends a new one); a 401 makes the keeper log in again.
import { config } from "../../config";
import type { Db } from "../../db";
import { log } from "../../log";
import { codeOf, isOrderState } from "../../orders/states";
import { callExchange } from "./client";

interface Sent {
  fingerprint: string;
  at: number;
}

const sentKey = Symbol.for("taxi.exchangeDriverReports");
type Holder = { [sentKey]?: Map<number, Sent> };

function sentMap(): Map<number, Sent> {
  const holder = globalThis as Holder;
  holder[sentKey] ??= new Map();
  return holder[sentKey];
}

export interface DriverReport {
  id: string;
  attributes: { callSign: string; latitude: string; longitude: string; status: number; speed: string; bearing: string };
}

/** The reports due now: drivers of ours executing a bought order whose state changed. */
export async function dueReports(db: Db, now = Date.now()): Promise<Array<{ orderId: number; driverId: number; fingerprint: string; report: DriverReport }>> {
  const links = await db.exchangeLink.findMany({
    where: { role: "BOUGHT", phase: "TAKEN", exchangeOrderId: { not: null } },
    select: {
      orderId: true,
      order: { select: { state: true, driver: { select: { id: true, callSign: true, lat: true, lon: true, speed: true, bearing: true, positionAt: true } } } },
    },
    orderBy: { orderId: "asc" },
    take: 500,
  });
  const sent = sentMap();
  const every = config().EXCHANGE_DRIVER_REPORT_SECONDS * 1000;
  const due: Array<{ orderId: number; driverId: number; fingerprint: string; report: DriverReport }> = [];
  for (const link of links) {
    const driver = link.order.driver;
    if (!driver || driver.lat === null || driver.lon === null || !isOrderState(link.order.state)) continue;
    const status = codeOf(link.order.state);
    const fingerprint = `${link.orderId}:${status}:${driver.positionAt?.getTime() ?? 0}`;
    const last = sent.get(driver.id);
    if (last && (last.fingerprint === fingerprint || now - last.at < every)) continue;
    due.push({
      orderId: link.orderId,
      driverId: driver.id,
      fingerprint,
      report: {
        id: String(driver.id),
        attributes: {
          callSign: driver.callSign,
          latitude: String(driver.lat),
          longitude: String(driver.lon),
          status,
          speed: String(driver.speed),
          bearing: String(driver.bearing),
        },
      },
    });
  }
  return due;
}

/** One job turn: sends the due reports. Returns how many the exchange accepted. */
export async function reportDrivers(db: Db): Promise<number> {
  const sent = sentMap();
  let accepted = 0;
  for (const due of await dueReports(db)) {
    // Marked first: a failing exchange is not asked again before the interval.
    sent.set(due.driverId, { fingerprint: due.fingerprint, at: Date.now() });
    try {
      await callExchange(db, "driver/update", { id: due.report.id, attributes: due.report.attributes });
      accepted++;
    } catch (error) {
      log.warn("exchange: a driver report was refused", { driverId: due.driverId, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return accepted;
}
