// The order exchange under /exchange (the marketplace). Implemented by the
// exchange work (issue 4).
import { jsonResponse, type ApiRequest, type ApiResponse } from "../http/types";

export async function handleExchangeApi(request: ApiRequest): Promise<ApiResponse> {
  return jsonResponse(404, { errors: [{ status: 404, title: "Not Found", detail: `/exchange/${request.path}` }] });
}
