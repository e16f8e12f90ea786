// The exchange API through Next's router; the custom server serves the same handler directly.
import { handleExchangeApi } from "@/server/exchange-api/router";
import { toRouteHandler } from "@/server/http/web-adapter";

export const dynamic = "force-dynamic";
const handler = toRouteHandler("/exchange", handleExchangeApi);
export { handler as GET, handler as POST, handler as PUT, handler as DELETE, handler as PATCH };
