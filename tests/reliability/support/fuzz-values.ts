// Values for the fuzz suite: plausible ones (so that requests get past the
// first checks) and nasty ones (wrong types, empty, huge, broken JSON,
// injection, invalid UTF-8, prototype keys ...).
import fc from "fast-check";

/** A parameter value: text (percent-encoded when sent) or raw (sent as is, e.g. "%FF%FE"). */
export type Value = { text: string } | { raw: string };

export const INJECTIONS = [
  "'; DROP TABLE orders; --",
  "' OR '1'='1",
  '" OR ""="',
  "1; SELECT pg_sleep(30)--",
  "1) OR 1=1--",
  "$(reboot)",
  "`id`",
  "| cat /etc/passwd",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "javascript:alert(1)",
  "../../../../etc/passwd",
  "..\\..\\windows\\win.ini",
  "${jndi:ldap://127.0.0.1/x}",
  "{{7*7}}",
  "#{7*7}",
  "%s%s%s%s%n",
  "\r\nSet-Cookie: pwned=1",
  "\u0000",
  "a\u0000b",
  "__proto__",
  "constructor",
  "prototype",
  "{\"$where\": \"sleep(1000)\"}",
  "\\u0000",
  "\u202eevil",
  "🚕🚕🚕",
  "\ud800",
  "\udfff\ud800",
  "\uffff\ufffe",
  "ǅ̸̨͓̹̬̮̥̰̣ͭ̓ͣ̄̌",
];

export const NUMERIC_NASTIES = [
  "NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "-1e309",
  "1e-400",
  "0",
  "-0",
  "-1",
  "+1",
  "00000000001",
  "2147483647",
  "2147483648",
  "-2147483649",
  "9007199254740993",
  "99999999999999999999999999999999",
  "0x1F",
  "0b101",
  "1_000",
  "1,5",
  "1.2.3",
  "1e5",
  ".",
  ",",
  "+",
  "-",
  " 1",
  "1 ",
  "١٢٣",
  "１２３",
  "12abc",
  "true",
  "false",
  "null",
  "undefined",
];

export const JSON_NASTIES = [
  "[",
  "{",
  "[{",
  '[{"street":',
  '{"1":',
  "[{street:'x'}]",
  "{'a':1}",
  '[{"street":"ул. Ленина","house":"2"},]',
  "[1,2,3]",
  '"just a string"',
  "null",
  "true",
  "{}",
  "[]",
  "[null]",
  "[[]]",
  "[{}]",
  '[{"lat":"x","lon":"y"}]',
  '[{"latitude":1e999,"longitude":-1e999}]',
  '[{"lat":91,"lon":181}]',
  '[{"street":{"$gt":""}}]',
  '{"__proto__":{"polluted":true}}',
  '[{"__proto__":{"polluted":true},"street":"x"}]',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"1":1e9}',
  '{"-1":1}',
  '{"999999999999":1}',
  '{"1":"x"}',
  '{"1":-1}',
  '{"1":1.5}',
  "[" + "[".repeat(5000) + "]".repeat(5000) + "]",
  '{"a":' .repeat(2000) + "1" + "}".repeat(2000),
  JSON.stringify(Array.from({ length: 200 }, () => ({ street: "ул. Ленина", house: "2" }))),
  JSON.stringify(Array.from({ length: 21 }, (_, i) => ({ lat: 55 + i / 100, lon: 37 }))),
  "\ufeff[]",
  "[1,2,3]\u0000",
];

/** Percent-encoded bytes that are not UTF-8 (overlong forms, lone surrogates, truncated sequences, stray continuation bytes). */
export const BAD_UTF8 = ["%FF", "%FE%FF", "%C3%28", "%A0%A1", "%E2%28%A1", "%E2%82%28", "%F0%28%8C%BC", "%ED%A0%80", "%ED%BF%BF", "%C0%AF", "%E0%80%AF", "%F8%88%80%80%80", "%F4%90%80%80", "%E2%82", "%", "%%", "%G1", "%u0041", "%00"];

export const nastyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...INJECTIONS) },
  // NUL characters: PostgreSQL text cannot hold them.
  { weight: 2, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([a, b]) => `${a}\u0000${b}`) },
  { weight: 4, arbitrary: fc.constantFrom(...NUMERIC_NASTIES) },
  { weight: 3, arbitrary: fc.constantFrom(...JSON_NASTIES) },
  { weight: 2, arbitrary: fc.constantFrom("", " ", "   ", "\t", "\n", "\r\n") },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.integer().map(String) },
  { weight: 2, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.bigInt().map(String) },
  { weight: 2, arbitrary: fc.constantFrom(51, 65, 101, 201, 501, 1001, 2001, 4001).map((n) => "x".repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom(1000, 3000).map((n) => "я".repeat(n)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? "null") },
);

/** Values of bodies only (no URL could hold them). */
export const hugeText: fc.Arbitrary<string> = fc.constantFrom(20_001, 60_000, 150_000).map((n) => "9".repeat(n));

export const nastyValue: fc.Arbitrary<Value> = fc.oneof(
  { weight: 12, arbitrary: nastyText.map((text) => ({ text })) },
  { weight: 2, arbitrary: fc.constantFrom(...BAD_UTF8).map((raw) => ({ raw })) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...BAD_UTF8), fc.string({ maxLength: 8 })).map(([bad, s]) => ({ raw: `${encodeURIComponent(s)}${bad}` })) },
);

const pastTime = fc.constantFrom("2001-01-01 00:00:00", "2020-02-30 10:00:00", "2030-13-01 10:00", "1999-12-31T23:59:59", "2030-01-01 25:61:61");

/** Plausible values by parameter name (the dispatch API's names). */
export function plausible(name: string): fc.Arbitrary<string> {
  switch (name) {
    case "phone":
      return fc.constantFrom("89161234567", "+7 (916) 123-45-67", "79990000000", "89990000000");
    case "street":
    case "dst_street":
    case "src_street":
      return fc.constantFrom("ул. Ленина", "ул. Семёновская", "Ленина", "ул. Несуществующая", "аэропорт");
    case "house":
    case "dst_house":
    case "src_house":
      return fc.constantFrom("1", "2", "5", "2к1", "99999");
    case "lat":
    case "dst_lat":
    case "src_lat":
      return fc.constantFrom("55.75", "55,8", "-90", "90", "0");
    case "lon":
    case "dst_lon":
    case "src_lon":
      return fc.constantFrom("37.62", "37,7", "-180", "180", "0");
    case "uuid":
      return fc.uuid().map((u) => u);
    case "code":
      return fc.constantFrom("1", "2", "4", "9", "91", "95", "100", "42");
    case "driver_code":
    case "code_":
      return fc.constantFrom("101", "102", "NOPE-1");
    case "txn_id":
      return fc.string({ minLength: 1, maxLength: 64 });
    case "amount":
      return fc.constantFrom("10", "-5.5", "0.01", "100,25");
    case "customer_id":
    case "service_id":
    case "city_id":
    case "region_id":
    case "queue_id":
    case "rate_id":
    case "customer_card_id":
    case "customer_card_number":
    case "route_time":
    case "distance":
    case "limit":
      return fc.constantFrom("1", "2", "3", "10", "1000", "999999");
    case "pattern":
      return fc.constantFrom("лен", "а", "ул", "%", "_", "\\");
    case "way_points":
      return fc.constantFrom(
        JSON.stringify([{ street: "ул. Ленина", house: "2" }, { latitude: 55.8, longitude: 37.7 }]),
        JSON.stringify([{ lat: 55.75, lon: 37.62 }]),
        JSON.stringify([{ street: "ул. Ленина", house: "5", lat: null, lon: null }]),
      );
    case "extras":
      return fc.constantFrom("1*2,2", "3", '{"1": 1}', "1*100");
    case "moderation_required":
    case "need_notify":
    case "use_bonuses":
    case "check":
      return fc.constantFrom("yes", "no", "YES", "No");
    case "pre_order_time":
    case "pre_order_time_utc":
      return fc.oneof(pastTime, fc.constant("2030-06-01 12:00:00"));
    case "token":
      return fc.constantFrom("eyJhbGciOi.fake", "a.b", "not-a-token", "x".repeat(300));
    default:
      return fc.constantFrom("1", "x", "Иван", "test");
  }
}
