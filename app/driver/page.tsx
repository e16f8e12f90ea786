// The driver's app itself (app/components/driver/driver-app.tsx). The map's
// tile URL is the deployment's MAP_TILE_URL (empty: the plain street map).
import { DriverApp } from "@/app/components/driver/driver-app";
import { config } from "@/server/config";

export const dynamic = "force-dynamic";

export default function DriverPage() {
  return <DriverApp tileUrl={config().MAP_TILE_URL.trim()} />;
}
