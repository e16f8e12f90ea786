// POST /drivers: a filter query in the Waterline criteria language,
// translated into a Prisma `where` over ExchangeDriver. Only the fields of
// the Driver resource can be named (a whitelist); values are parameters of
// Prisma's queries, never SQL text. Anything the translation does not
// support is a BadRequest that names it; a value of the wrong type is a
// TypeError.
//
// Supported (docs/exchange.md, "Driver filter"):
//   criteria   {where, limit, skip, sort, select, omit} — or a bare where object
//   where      {field: value} equality, {field: [a, b]} in, {field: null},
//              {field: {<modifier>: value, ...}} with the modifiers
//              <, lessThan, <=, lessThanOrEqual, >, greaterThan, >=,
//              greaterThanOrEqual, !, not, !=, in, nin, contains, startsWith,
//              endsWith, like (% any text, _ one character, anywhere),
//              {or: [where, ...]}, {and: [where, ...]}
//   limit      1..1000 (default 100); skip >= 0; sort "field ASC|DESC",
//              {field: "ASC"|"DESC"|1|-1}, or an array of those
//   select     the fields to return (the id always), or omit: the fields not to
// Text ignores case everywhere (as Waterline's query language says);
// integers compare as numbers. `options` (an integer array) takes a number
// (has), contains (has / has every) and in (has some). No field of a driver
// is ever empty: `null` matches no driver, `{"!": null}` every driver.
//
// Prisma turns case-insensitive text filters into ILIKE (equals, not,
// contains, startsWith, endsWith) without escaping the operand, so every
// operand is escaped here (\ % _ get a backslash) except a `like` pattern,
// whose % and _ are the wildcards they are in Waterline (its backslashes
// are escaped: Waterline's like has no escape character). No regular
// expression runs on request data; text operands are at most MAX_TEXT long.
import type { Prisma } from "../generated/prisma/client";
import { badRequest, wrongType } from "./errors";

type Kind = "string" | "int" | "intArray";

export const DRIVER_FIELDS: Record<string, Kind> = {
  id: "string",
  callSign: "string",
  name: "string",
  phone: "string",
  registrationNumber: "string",
  brand: "string",
  model: "string",
  modelCode: "string",
  color: "string",
  colorCode: "string",
  carage: "string",
  connectBy: "string",
  carClass: "int",
  options: "intArray",
};

const MODIFIERS = [
  "<",
  "lessThan",
  "<=",
  "lessThanOrEqual",
  ">",
  "greaterThan",
  ">=",
  "greaterThanOrEqual",
  "!",
  "not",
  "!=",
  "in",
  "nin",
  "contains",
  "startsWith",
  "endsWith",
  "like",
] as const;
type Modifier = (typeof MODIFIERS)[number];
/** The longest text operand (a call sign, a name, a pattern). */
export const MAX_TEXT = 200;
const STRUCTURE_KEYS = ["where", "limit", "skip", "sort", "select", "omit"];

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
const MAX_DEPTH = 6;
const MAX_CONDITIONS = 200;

export interface DriverQuery {
  /** the resource's fields to return (select/omit; all by default) */
  fields: string[];
  where: Prisma.ExchangeDriverWhereInput;
  take: number;
  skip: number;
  orderBy: Prisma.ExchangeDriverOrderByWithRelationInput[];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

class Translator {
  private conditions = 0;

  where(input: unknown, path: string, depth = 0): Prisma.ExchangeDriverWhereInput {
    if (!isObject(input)) throw badRequest(`${path} must be an object`, { parameter: path });
    if (depth > MAX_DEPTH) throw badRequest(`${path} is nested too deeply (at most ${MAX_DEPTH} levels)`, { parameter: path });
    const and: Prisma.ExchangeDriverWhereInput[] = [];
    for (const [key, value] of Object.entries(input)) {
      const at = `${path}.${key}`;
      if (key === "or" || key === "and") {
        if (!Array.isArray(value) || value.length === 0) throw badRequest(`${at} must be a non-empty array of conditions`, { parameter: at });
        const parts = value.map((v, i) => this.where(v, `${at}[${i}]`, depth + 1));
        and.push(key === "or" ? { OR: parts } : { AND: parts });
        continue;
      }
      // Own fields only: "constructor" or "__proto__" are no fields.
      const kind = Object.hasOwn(DRIVER_FIELDS, key) ? DRIVER_FIELDS[key] : undefined;
      if (!kind) {
        throw badRequest(`unknown field "${key}" in ${path}; the fields are ${Object.keys(DRIVER_FIELDS).join(", ")} (and or, and)`, {
          parameter: at,
        });
      }
      if (++this.conditions > MAX_CONDITIONS) throw badRequest(`the filter has more than ${MAX_CONDITIONS} conditions`);
      const translated = this.field(key, kind, value, at);
      for (const filter of Array.isArray(translated) ? translated : [translated]) {
        if (filter === EVERYTHING) continue;
        and.push(filter === NOTHING ? NO_DRIVER : ({ [key]: filter }));
      }
    }
    if (and.length === 0) return {};
    if (and.length === 1) return and[0]!;
    return { AND: and };
  }

  private scalar(kind: Kind, value: unknown, at: string): string | number {
    if (kind === "string") {
      const text = typeof value === "string" ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : undefined;
      if (text === undefined) throw wrongType(at, "string");
      if (text.length > MAX_TEXT) throw badRequest(`${at}: at most ${MAX_TEXT} characters`, { parameter: at });
      return text;
    }
    if (typeof value === "number" && Number.isInteger(value)) return value;
    throw wrongType(at, "integer");
  }

  /** The values of an in/nin list; null (which no driver field holds) is left out. */
  private list(kind: Kind, value: unknown, at: string): Array<string | number> {
    if (!Array.isArray(value)) throw wrongType(at, "array");
    if (value.length > 1000) throw badRequest(`${at} has more than 1000 values`, { parameter: at });
    const out: Array<string | number> = [];
    value.forEach((v, i) => {
      if (v !== null) out.push(this.scalar(kind === "intArray" ? "int" : kind, v, `${at}[${i}]`));
    });
    return out;
  }

  private field(name: string, kind: Kind, value: unknown, at: string): unknown {
    if (value === null) return NOTHING;
    if (kind === "intArray") return this.arrayField(value, at);
    const text = kind === "string";
    // Case is ignored for text: Prisma's ILIKE (escaped operands) or LOWER() for in / notIn.
    const mode = text ? { mode: "insensitive" as const } : {};
    const exact = (v: string | number) => (text ? escapeLike(String(v)) : v);
    if (Array.isArray(value)) {
      const values = this.list(kind, value, at);
      return values.length === 0 ? NOTHING : { in: values, ...mode };
    }
    if (!isObject(value)) return { equals: exact(this.scalar(kind, value, at)), ...mode };
    const entries = Object.entries(value);
    if (entries.length === 0) throw badRequest(`${at} has no modifier`, { parameter: at });
    const filters: Array<Record<string, unknown>> = [];
    for (const [modifier, operand] of entries) {
      const mat = `${at}.${modifier}`;
      if (!(MODIFIERS as readonly string[]).includes(modifier)) {
        throw badRequest(`unsupported modifier "${modifier}" in ${at}; supported: ${MODIFIERS.join(" ")}`, { parameter: mat });
      }
      const m = modifier as Modifier;
      if (operand === null) {
        // No driver field is empty: "not null" is every driver, any other test of null none.
        filters.push(m === "!" || m === "not" || m === "!=" ? EVERYTHING : NOTHING);
        continue;
      }
      switch (m) {
        case "<":
        case "lessThan":
          filters.push({ lt: this.scalar(kind, operand, mat), ...mode });
          break;
        case "<=":
        case "lessThanOrEqual":
          filters.push({ lte: this.scalar(kind, operand, mat), ...mode });
          break;
        case ">":
        case "greaterThan":
          filters.push({ gt: this.scalar(kind, operand, mat), ...mode });
          break;
        case ">=":
        case "greaterThanOrEqual":
          filters.push({ gte: this.scalar(kind, operand, mat), ...mode });
          break;
        case "!":
        case "not":
        case "!=":
          if (Array.isArray(operand)) {
            const values = this.list(kind, operand, mat);
            filters.push(values.length === 0 ? EVERYTHING : { notIn: values, ...mode });
          } else if (isObject(operand)) throw badRequest(`${mat} takes a value or an array of values`, { parameter: mat });
          else filters.push({ not: exact(this.scalar(kind, operand, mat)), ...mode });
          break;
        case "in": {
          const values = this.list(kind, operand, mat);
          filters.push(values.length === 0 ? NOTHING : { in: values, ...mode });
          break;
        }
        case "nin": {
          const values = this.list(kind, operand, mat);
          filters.push(values.length === 0 ? EVERYTHING : { notIn: values, ...mode });
          break;
        }
        case "contains":
        case "startsWith":
        case "endsWith":
          if (!text) throw badRequest(`${modifier} applies to text fields, not to ${name}`, { parameter: mat });
          filters.push({ [m]: escapeLike(this.scalar(kind, operand, mat) as string), ...mode });
          break;
        case "like":
          if (!text) throw badRequest(`like applies to text fields, not to ${name}`, { parameter: mat });
          // ILIKE with the pattern as it is: % and _ are its wildcards.
          filters.push({ equals: escapeBackslashes(this.scalar(kind, operand, mat) as string), ...mode });
          break;
      }
    }
    return filters;
  }

  private arrayField(value: unknown, at: string): unknown {
    if (typeof value === "number") return { has: this.scalar("int", value, at) };
    if (Array.isArray(value)) return { hasSome: this.list("intArray", value, at) };
    if (!isObject(value)) throw wrongType(at, "integer, array of integers or modifier object");
    const filter: Record<string, unknown> = {};
    for (const [modifier, operand] of Object.entries(value)) {
      const mat = `${at}.${modifier}`;
      if (modifier === "contains") {
        if (Array.isArray(operand)) filter.hasEvery = this.list("intArray", operand, mat);
        else filter.has = this.scalar("int", operand, mat);
      } else if (modifier === "in") {
        filter.hasSome = this.list("intArray", operand, mat);
      } else {
        throw badRequest(`modifier "${modifier}" is not supported on options (use a number, contains or in)`, { parameter: mat });
      }
    }
    if (Object.keys(filter).length === 0) throw badRequest(`${at} has no modifier`, { parameter: at });
    return filter;
  }
}

const NOTHING = Object.freeze({ kind: "nothing" });
const EVERYTHING = Object.freeze({ kind: "everything" });
/** A condition no driver meets. */
const NO_DRIVER: Prisma.ExchangeDriverWhereInput = { id: { in: [] } };

/** The text as a LIKE pattern that matches only itself: \\, % and _ escaped (one pass, no regular expression). */
export function escapeLike(text: string): string {
  let out = "";
  for (const ch of text) out += ch === "\\" || ch === "%" || ch === "_" ? `\\${ch}` : ch;
  return out;
}

/** A Waterline like pattern for ILIKE: its wildcards kept, its backslashes literal. */
export function escapeBackslashes(pattern: string): string {
  let out = "";
  for (const ch of pattern) out += ch === "\\" ? "\\\\" : ch;
  return out;
}

function fieldList(value: unknown, at: string): string[] {
  if (!Array.isArray(value) || value.length === 0) throw badRequest(`${at} must be a non-empty array of field names`, { parameter: at });
  return value.map((field, i) => {
    if (typeof field !== "string" || !Object.hasOwn(DRIVER_FIELDS, field)) {
      throw badRequest(`${at}[${i}]: unknown field; the fields are ${Object.keys(DRIVER_FIELDS).join(", ")}`, { parameter: `${at}[${i}]` });
    }
    return field;
  });
}

/** The fields to return: all, those selected (with the id), or all but those omitted (never the id). */
function fieldsParam(criteria: Record<string, unknown>): string[] {
  const all = Object.keys(DRIVER_FIELDS);
  if (criteria.select !== undefined && criteria.omit !== undefined) throw badRequest("use select or omit, not both", { parameter: "omit" });
  if (criteria.select !== undefined) {
    const chosen = new Set(["id", ...fieldList(criteria.select, "select")]);
    return all.filter((field) => chosen.has(field));
  }
  if (criteria.omit !== undefined) {
    const left = new Set(fieldList(criteria.omit, "omit"));
    if (left.has("id")) throw badRequest("omit: the id is always returned", { parameter: "omit" });
    return all.filter((field) => !left.has(field));
  }
  return all;
}

function integerParam(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value)) throw wrongType(name, "integer");
  if (value < min || value > max) throw badRequest(`${name} must be from ${min} to ${max}`, { parameter: name });
  return value;
}

function sortEntry(field: string, direction: unknown, at: string): Prisma.ExchangeDriverOrderByWithRelationInput {
  if (!Object.hasOwn(DRIVER_FIELDS, field)) throw badRequest(`cannot sort by "${field}"; the fields are ${Object.keys(DRIVER_FIELDS).join(", ")}`, { parameter: at });
  let dir: "asc" | "desc";
  if (direction === undefined || direction === 1 || (typeof direction === "string" && direction.toLowerCase() === "asc")) dir = "asc";
  else if (direction === -1 || (typeof direction === "string" && direction.toLowerCase() === "desc")) dir = "desc";
  else throw badRequest(`${at}: the direction is ASC, DESC, 1 or -1`, { parameter: at });
  return { [field]: dir };
}

function sortParam(value: unknown, at = "sort"): Prisma.ExchangeDriverOrderByWithRelationInput[] {
  if (value === undefined) return [];
  if (typeof value === "string") {
    if (value.length > MAX_TEXT) throw badRequest(`${at}: at most ${MAX_TEXT} characters`, { parameter: at });
    return value
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "")
      .map((part) => {
        const [field = "", direction, extra] = part.split(" ").filter((word) => word !== "");
        if (extra !== undefined) throw badRequest(`${at}: "${part}" is not "field ASC|DESC"`, { parameter: at });
        return sortEntry(field, direction, at);
      });
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => sortParam(v, `${at}[${i}]`));
  if (isObject(value)) return Object.entries(value).map(([field, direction]) => sortEntry(field, direction, `${at}.${field}`));
  throw wrongType(at, "string, object or array");
}

/** The Prisma query of a waterline-style criteria object. */
export function translateDriverCriteria(criteria: unknown): DriverQuery {
  if (criteria === undefined || criteria === null) criteria = {};
  if (!isObject(criteria)) throw badRequest("the filter must be a JSON object");
  const structured = Object.keys(criteria).some((k) => STRUCTURE_KEYS.includes(k));
  const t = new Translator();
  if (!structured) {
    return { fields: Object.keys(DRIVER_FIELDS), where: t.where(criteria, "where"), take: DEFAULT_LIMIT, skip: 0, orderBy: [{ callSign: "asc" }] };
  }
  for (const key of Object.keys(criteria)) {
    if (!STRUCTURE_KEYS.includes(key)) {
      throw badRequest(`unknown criteria key "${key}": use where, limit, skip, sort, select and omit (or a bare where object)`, { parameter: key });
    }
  }
  const where = criteria.where === undefined ? {} : t.where(criteria.where, "where");
  const orderBy = sortParam(criteria.sort);
  return {
    fields: fieldsParam(criteria),
    where,
    take: integerParam(criteria.limit, "limit", 1, MAX_LIMIT, DEFAULT_LIMIT),
    skip: integerParam(criteria.skip, "skip", 0, 1_000_000, 0),
    orderBy: orderBy.length > 0 ? [...orderBy, { id: "asc" }] : [{ callSign: "asc" }, { id: "asc" }],
  };
}
