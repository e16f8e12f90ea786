// Our dispatch server's endpoints for the exchange, under /participant.
// Implemented by the exchange work (issue 4).
import { jsonResponse, type ApiRequest, type ApiResponse } from "../http/types";

export async function handleParticipantApi(request: ApiRequest): Promise<ApiResponse> {
  return jsonResponse(404, { meta: { vendor: "taxi-dispatch", status: 404 }, errors: [{ detail: `/participant/${request.path}` }] });
}
