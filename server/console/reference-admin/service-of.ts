// The service (and its queue) a rate or an extra belongs to, or NOT_FOUND.
import type { DbOrTx } from "../../db";
import { ValidationError } from "../../errors";

export async function serviceOf(db: DbOrTx, serviceId: number, queueId: number | null) {
  const service = await db.service.findUnique({ where: { id: serviceId }, select: { id: true, cityId: true, queues: { select: { id: true } } } });
  if (!service) throw new ValidationError("NOT_FOUND", { what: "Service", id: serviceId });
  if (queueId !== null && !service.queues.some((q) => q.id === queueId)) throw new ValidationError("BAD_PARAMETER", { parameter: "queueId", expected: "a queue of the service" });
  return service;
}
