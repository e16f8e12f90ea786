// Our participant server endpoints through Next's router; the custom server serves the same handler directly.
import { handleParticipantApi } from "@/server/participant-api/router";
import { toRouteHandler } from "@/server/http/web-adapter";

export const dynamic = "force-dynamic";
const handler = toRouteHandler("/participant", handleParticipantApi);
export { handler as GET, handler as POST, handler as PUT, handler as DELETE, handler as PATCH };
