// Every operation of the dispatch API, in the order of the reference.
import type { Operation } from "../define";
import { changeset, version } from "./meta";
import { cancelOrderOperation, createOrderOperation, getStatusOperation, orderInfoOperation, setStatusOperation } from "./orders";
import { estimateOperation } from "./estimate";
import { extrasOperation, ratesOperation, regionByAddressOperation, regionByCoordOperation, regionsOperation, servicesOperation, streetsOperation } from "./reference";
import { driverPositionOperation, driversListOperation } from "./drivers";
import { getCallbackOperation, setCallbackOperation, testCallbackOperation } from "./callback";
import { bonusCountOperation, customerBalanceOperation, customerPaymentOperation, driverBalanceOperation, driverPaymentOperation } from "./balances";

const all = [
  version,
  changeset,
  createOrderOperation,
  estimateOperation,
  orderInfoOperation,
  cancelOrderOperation,
  setStatusOperation,
  getStatusOperation,
  servicesOperation,
  regionsOperation,
  regionByAddressOperation,
  regionByCoordOperation,
  ratesOperation,
  streetsOperation,
  driversListOperation,
  driverPositionOperation,
  bonusCountOperation,
  driverPaymentOperation,
  driverBalanceOperation,
  customerPaymentOperation,
  customerBalanceOperation,
  extrasOperation,
  // ours: the integrator's own status callback
  getCallbackOperation,
  setCallbackOperation,
  testCallbackOperation,
];

// The router only needs the common shape; each definition keeps its own types.
export const OPERATIONS = all as unknown as Operation[];
