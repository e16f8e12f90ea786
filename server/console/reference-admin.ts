// Reference data for administrators: services, regions (polygons), rates,
// extras, streets with houses, drivers with cars, the phone blacklist. Each
// change forgets the caches that hold the data (reference, regions, base
// maps, driver keys) so that prices, addresses and the map follow at once;
// the tRPC layer audits every call. Edits reply the names of the fields they
// changed (`changes`), which the audit row keeps.
// One file an operation in reference-admin/; this module lists them for the tRPC router.
export { listServicesAdmin } from "./reference-admin/list-services";
export { saveService, type ServiceInput } from "./reference-admin/save-service";
export { listRegionsAdmin } from "./reference-admin/list-regions";
export { saveRegion, type RegionInput } from "./reference-admin/save-region";
export { rateAdminSelect, listRatesAdmin } from "./reference-admin/list-rates";
export { saveRate, type RateInput } from "./reference-admin/save-rate";
export { listExtrasAdmin } from "./reference-admin/list-extras";
export { saveExtra, type ExtraInput } from "./reference-admin/save-extra";
export { searchStreetsAdmin } from "./reference-admin/search-streets";
export { streetDetails } from "./reference-admin/street-details";
export { type HouseInput } from "./reference-admin/houses";
export { addStreet, type StreetInput } from "./reference-admin/add-street";
export { addHouses } from "./reference-admin/add-houses";
export { listDriversAdmin } from "./reference-admin/list-drivers";
export { saveDriver, type CarInput, type DriverInput } from "./reference-admin/save-driver";
export { setDriverActive } from "./reference-admin/set-driver-active";
export { issueDriverKey } from "./reference-admin/issue-driver-key";
export { listBlacklist } from "./reference-admin/list-blacklist";
export { addToBlacklist } from "./reference-admin/add-to-blacklist";
export { removeFromBlacklist } from "./reference-admin/remove-from-blacklist";
