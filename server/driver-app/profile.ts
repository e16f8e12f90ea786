// What the driver app reads about the driver: the profile and the driver's open orders.
import type { Db } from "../db";
import { kopecksToRoubles } from "../balances/money";
import { NOT_DONE_STATES } from "../orders/states";
import type { DriverIdentity } from "./keys";
import { dispatchLivenessView } from "./liveness-view";
import { orderSelect, view, type DriverOrderView } from "./order-view";
import { withMeter } from "./meter-view";

export async function driverProfile(db: Db, me: DriverIdentity) {
  const driver = await db.driver.findUniqueOrThrow({
    where: { id: me.id },
    select: {
      id: true,
      callSign: true,
      firstName: true,
      lastName: true,
      state: true,
      balance: true,
      cityId: true,
      lat: true,
      lon: true,
      speed: true,
      bearing: true,
      regionId: true,
      positionAt: true,
      appSeenAt: true,
      awaySince: true,
      onBreak: { select: { since: true } },
      services: { select: { serviceId: true, service: { select: { name: true, nameEn: true } } }, orderBy: { serviceId: "asc" } },
      car: { select: { brand: true, model: true, color: true, regNumber: true, carClass: true } },
      shifts: { where: { endedAt: null }, select: { id: true, startedAt: true }, orderBy: { id: "desc" }, take: 1 },
    },
  });
  const shift = driver.shifts[0];
  return {
    id: driver.id,
    call_sign: driver.callSign,
    first_name: driver.firstName,
    last_name: driver.lastName,
    state: driver.state,
    on_shift: driver.state !== "OFFLINE",
    // On shift but offered nothing (issue 34).
    on_break: driver.onBreak !== null,
    shift_id: shift?.id ?? null,
    shift_started_at: shift?.startedAt.toISOString() ?? null,
    balance: kopecksToRoubles(driver.balance),
    city_id: driver.cityId,
    service_ids: driver.services.map((s) => s.serviceId),
    // The names, so that the app shows the services as the dispatch names them (in both of its languages).
    services: driver.services.map((s) => ({ id: s.serviceId, name: s.service.name, name_en: s.service.nameEn })),
    car: driver.car
      ? { brand: driver.car.brand, model: driver.car.model, color: driver.car.color, reg_number: driver.car.regNumber, car_class: driver.car.carClass }
      : null,
    position: {
      lat: driver.lat,
      lon: driver.lon,
      speed: driver.speed,
      bearing: driver.bearing,
      region_id: driver.regionId,
      at: driver.positionAt?.toISOString() ?? null,
    },
    dispatch: dispatchLivenessView(driver),
  };
}

/** The driver's own orders that are not done (taken, attached advance orders). */
export async function myOrders(db: Db, me: DriverIdentity): Promise<DriverOrderView[]> {
  const rows = await db.order.findMany({
    where: { driverId: me.id, state: { in: NOT_DONE_STATES } },
    select: orderSelect,
    orderBy: { id: "asc" },
    take: 50,
  });
  return Promise.all(rows.map((row) => withMeter(db, view(row, me.id))));
}

