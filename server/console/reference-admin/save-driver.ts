// Creating or editing a driver with their car.
import type { Db } from "../../db";
import { ValidationError, isUniqueViolation } from "../../errors";
import { normalizePhone } from "../../orders/phone";
import { changedFields, conflict, requireCity } from "./common";

export interface CarInput {
  brand: string;
  model: string;
  color: string;
  regNumber: string;
  year: number | null;
  carClass: number;
}

export interface DriverInput {
  id?: number;
  cityId: number;
  callSign: string;
  firstName: string;
  lastName: string;
  middleName: string;
  phone: string;
  permitNumber: string;
  serviceIds: number[];
  car: CarInput | null;
}

export async function saveDriver(db: Db, input: DriverInput) {
  await requireCity(db, input.cityId);
  const phone = normalizePhone(input.phone);
  if (!phone) throw new ValidationError("BAD_PARAMETER", { parameter: "phone", expected: "a phone number of 10 to 15 digits" });
  const services = await db.service.findMany({ where: { id: { in: input.serviceIds } }, select: { id: true, cityId: true } });
  if (services.length !== new Set(input.serviceIds).size || services.some((s) => s.cityId !== input.cityId)) {
    throw new ValidationError("BAD_PARAMETER", { parameter: "serviceIds", expected: "services of the driver's city" });
  }
  const callSign = input.callSign.trim();
  const twin = await db.driver.findFirst({ where: { callSign, ...(input.id ? { id: { not: input.id } } : {}) }, select: { id: true } });
  if (twin) throw conflict("callSignTaken", { callSign });
  const data = {
    cityId: input.cityId,
    callSign,
    firstName: input.firstName.trim(),
    lastName: input.lastName.trim(),
    middleName: input.middleName.trim(),
    phone,
    permitNumber: input.permitNumber.trim() || null,
  };
  const car = input.car ? { ...input.car, brand: input.car.brand.trim(), model: input.car.model.trim(), color: input.car.color.trim(), regNumber: input.car.regNumber.trim().toUpperCase() } : null;
  try {
    const result = await db.$transaction(async (tx) => {
      let id: number;
      let changes: string[];
      if (input.id) {
        const before = await tx.driver.findUnique({
          where: { id: input.id },
          select: {
            cityId: true,
            callSign: true,
            firstName: true,
            lastName: true,
            middleName: true,
            phone: true,
            permitNumber: true,
            services: { select: { serviceId: true } },
            car: { select: { brand: true, model: true, color: true, regNumber: true, year: true, carClass: true } },
          },
        });
        if (!before) throw new ValidationError("NOT_FOUND", { what: "Driver", id: input.id });
        id = input.id;
        const { services: beforeServices, car: beforeCar, ...beforeFields } = before;
        changes = changedFields(beforeFields, data);
        const oldIds = beforeServices.map((s) => s.serviceId).sort((a, b) => a - b);
        const newIds = [...new Set(input.serviceIds)].sort((a, b) => a - b);
        if (JSON.stringify(oldIds) !== JSON.stringify(newIds)) changes.push("services");
        if (JSON.stringify(beforeCar) !== JSON.stringify(car)) changes.push("car");
        await tx.driver.update({ where: { id }, data, select: { id: true } });
        await tx.driverService.deleteMany({ where: { driverId: id } });
      } else {
        const created = await tx.driver.create({ data, select: { id: true } });
        id = created.id;
        changes = [...Object.keys(data), "services", ...(car ? ["car"] : [])];
      }
      if (input.serviceIds.length) await tx.driverService.createMany({ data: [...new Set(input.serviceIds)].map((serviceId) => ({ driverId: id, serviceId })) });
      if (car) await tx.car.upsert({ where: { driverId: id }, create: { driverId: id, ...car }, update: car, select: { id: true } });
      else await tx.car.deleteMany({ where: { driverId: id } });
      return { id, changes };
    });
    return { ...result, driverId: result.id };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("callSignTaken", { callSign });
    throw error;
  }
}
