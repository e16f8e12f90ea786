// The dispatch API through Next's router (used by `next dev` without the
// custom server); the custom server serves the same handler directly.
import { handleDispatchApi } from "@/server/dispatch-api/router";
import { toRouteHandler } from "@/server/http/web-adapter";

export const dynamic = "force-dynamic";
const handler = toRouteHandler("/api", handleDispatchApi);
export { handler as GET, handler as POST, handler as PUT, handler as DELETE, handler as PATCH };
