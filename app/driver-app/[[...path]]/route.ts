// The driver app interface through Next's router; the custom server serves the same handler directly.
import { handleDriverApp } from "@/server/driver-app/api/router";
import { toRouteHandler } from "@/server/http/web-adapter";

export const dynamic = "force-dynamic";
const handler = toRouteHandler("/driver-app", handleDriverApp);
export { handler as GET, handler as POST, handler as PUT, handler as DELETE, handler as PATCH };
