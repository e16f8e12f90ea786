import { RequireRoles } from "@/app/components/guard";
import { MapPage } from "@/app/components/map/map-page";

export default function MapRoute() {
  return (
    <RequireRoles roles={["DISPATCHER", "MANAGER"]}>
      <MapPage />
    </RequireRoles>
  );
}
