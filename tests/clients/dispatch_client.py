#!/usr/bin/env python3
"""A dispatch API client written the way clients in the wild are: base URL
`{base}/api`, paths appended without a leading slash, api_key in the query
string and again in the form body on POST, raise-for-status first, then
`status`/`response`/`error.message`. Standard library only.

usage: dispatch_client.py BASE_URL API_KEY
"""
import json
import sys
import urllib.parse
import urllib.request


class ApiError(Exception):
    pass


class DispatchClient:
    def __init__(self, base_url, api_key):
        self.api = base_url.rstrip("/") + "/api/"
        self.key = api_key
        # Reused between calls on purpose: stale parameters must be ignored.
        self.params = {"api_key": api_key}

    def _reply(self, request):
        with urllib.request.urlopen(request, timeout=10) as res:
            if res.status != 200:  # raise-for-status before reading the body
                raise ApiError("HTTP %d" % res.status)
            body = json.loads(res.read().decode("utf-8"))
        if body.get("status") != "DONE":
            raise ApiError(body["error"]["message"])
        return body

    def get(self, path, **params):
        self.params.update(params)
        url = self.api + path + "?" + urllib.parse.urlencode(self.params)
        return self._reply(urllib.request.Request(url))["response"]

    def post(self, path, **params):
        self.params.update(params)
        url = self.api + path + "?" + urllib.parse.urlencode({"api_key": self.key})
        data = urllib.parse.urlencode(self.params).encode("utf-8")
        return self._reply(urllib.request.Request(url, data=data, method="POST"))["response"]


def main():
    base, key = sys.argv[1], sys.argv[2]
    c = DispatchClient(base, key)

    services = c.get("services")["services"]
    assert services, "no services"
    service_id = services[0]["id"]

    streets = c.get("streets", pattern="лен")["streets"]
    assert "ул. Ленина" in streets, streets

    extras = c.get("extras", service_id=service_id)["extras"]
    extra = next(e for e in extras if e["allow_multiple"])

    waypoints = [
        {"name": "Дом", "street": "ул. Ленина", "house": "2"},
        {"latitude": 55.8, "longitude": 37.7},
    ]
    est = None
    for _ in range(3):  # the old client loops until the reply has a response
        est = c.get("order/pre_cost", phone="+79161234567", way_points=json.dumps(waypoints, ensure_ascii=False),
                    extras=json.dumps({str(extra["id"]): 2}), service_id=service_id)
        if est:
            break
    amount, distance, token = float(est["amount"]), float(est["distance"]), est["token"]
    assert amount > 0 and distance > 0 and token

    order = c.post("order", token=token, moderation_required="no", service_id=service_id,
                   comment="Подъезд 2,\nдомофон 15\nс ребёнком")
    uuid = order["uuid"]
    info = c.get("order", uuid=uuid)
    assert info["status"] == 9, info
    assert abs(float(info["amount"]) - amount) < 0.001, (info["amount"], amount)
    for field in ("message", "driver_id", "start_time", "remaining_time", "rate_id",
                  "car_brand", "car_model", "car_color", "car_number"):
        assert field in info, field

    position = c.get("drivers", code="101")
    float(position["lat"]), float(position["lon"])

    bonus = c.get("client/bonus/count", phone="89161234567")
    int(bonus["bonus"])

    cancelled = c.post("cancel_order", uuid=uuid)
    assert cancelled["message"]
    assert c.get("order", uuid=uuid)["status"] == 95

    try:
        c.post("cancel_order", uuid=uuid)
        raise AssertionError("cancelling twice should fail")
    except ApiError as error:
        assert str(error), "error.message must be readable"

    print("OK", uuid)


if __name__ == "__main__":
    main()
