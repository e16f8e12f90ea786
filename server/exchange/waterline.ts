// POST /drivers: a filter query in the waterline style, translated into a
// Prisma `where` over ExchangeDriver. Only the fields of the Driver resource
// can be named (a whitelist); values are parameters of Prisma's queries,
// never SQL text. Anything the translation does not support is a BadRequest
// that names it; a value of the wrong type is a TypeError.
//
// Supported (docs/exchange.md, "Driver filter"):
//   criteria   {where, limit, skip, sort} — or a bare where object
//   where      {field: value} equality, {field: [a, b]} in,
//              {field: {<modifier>: value, ...}} with the modifiers
//              <, <=, >, >=, !, not, !=, in, nin, contains, startsWith, endsWith,
//              like (a pattern with % at its start and/or end),
//              {or: [where, ...]}, {and: [where, ...]}
//   limit      1..1000 (default 100); skip >= 0; sort "field ASC|DESC",
//              {field: "ASC"|"DESC"|1|-1}, or an array of those
//   select     the fields to return (the id always), or omit: the fields not to
// Text matching (contains, startsWith, endsWith, like) ignores case; equality and
// comparisons do not. `options` (an integer array) takes a number (has),
// contains (has / has every) and in (has some).
import type { Prisma } from "../generated/prisma/client";
import { badRequest, wrongType } from "./errors";
import { trimEndChar, trimStartChar } from "../text/trim";

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

const MODIFIERS = ["<", "<=", ">", ">=", "!", "not", "!=", "in", "nin", "contains", "startsWith", "endsWith", "like"] as const;
type Modifier = (typeof MODIFIERS)[number];
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
      and.push({ [key]: this.field(key, kind, value, at) } as Prisma.ExchangeDriverWhereInput);
    }
    if (and.length === 0) return {};
    if (and.length === 1) return and[0]!;
    return { AND: and };
  }

  private scalar(kind: Kind, value: unknown, at: string): string | number {
    if (kind === "string") {
      if (typeof value === "string") return value;
      if (typeof value === "number" && Number.isFinite(value)) return String(value);
      throw wrongType(at, "string");
    }
    if (typeof value === "number" && Number.isInteger(value)) return value;
    throw wrongType(at, "integer");
  }

  private list(kind: Kind, value: unknown, at: string): Array<string | number> {
    if (!Array.isArray(value)) throw wrongType(at, "array");
    if (value.length > 1000) throw badRequest(`${at} has more than 1000 values`, { parameter: at });
    return value.map((v, i) => this.scalar(kind === "intArray" ? "int" : kind, v, `${at}[${i}]`));
  }

  private field(name: string, kind: Kind, value: unknown, at: string): unknown {
    if (value === null) throw badRequest(`${at}: null is not supported (no field of a driver is empty-able)`, { parameter: at });
    if (kind === "intArray") return this.arrayField(value, at);
    if (Array.isArray(value)) return { in: this.list(kind, value, at) };
    if (!isObject(value)) return { equals: this.scalar(kind, value, at) };
    const filter: Record<string, unknown> = {};
    const entries = Object.entries(value);
    if (entries.length === 0) throw badRequest(`${at} has no modifier`, { parameter: at });
    for (const [modifier, operand] of entries) {
      const mat = `${at}.${modifier}`;
      if (!(MODIFIERS as readonly string[]).includes(modifier)) {
        throw badRequest(`unsupported modifier "${modifier}" in ${at}; supported: ${MODIFIERS.join(" ")}`, { parameter: mat });
      }
      switch (modifier as Modifier) {
        case "<":
          filter.lt = this.scalar(kind, operand, mat);
          break;
        case "<=":
          filter.lte = this.scalar(kind, operand, mat);
          break;
        case ">":
          filter.gt = this.scalar(kind, operand, mat);
          break;
        case ">=":
          filter.gte = this.scalar(kind, operand, mat);
          break;
        case "!":
        case "not":
        case "!=":
          if (Array.isArray(operand)) filter.notIn = this.list(kind, operand, mat);
          else if (isObject(operand)) throw badRequest(`${mat} takes a value or an array of values`, { parameter: mat });
          else filter.not = this.scalar(kind, operand, mat);
          break;
        case "in":
          filter.in = this.list(kind, operand, mat);
          break;
        case "nin":
          filter.notIn = this.list(kind, operand, mat);
          break;
        case "contains":
        case "startsWith":
        case "endsWith":
          if (kind !== "string") throw badRequest(`${modifier} applies to text fields, not to ${name}`, { parameter: mat });
          filter[modifier] = this.scalar(kind, operand, mat);
          filter.mode = "insensitive";
          break;
        case "like":
          if (kind !== "string") throw badRequest(`like applies to text fields, not to ${name}`, { parameter: mat });
          Object.assign(filter, likeFilter(this.scalar(kind, operand, mat) as string, mat));
          break;
      }
    }
    return filter;
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

/**
 * A LIKE pattern as Prisma's text filters: "abc" equals, "abc%" starts with,
 * "%abc" ends with, "%abc%" contains (case ignored), "%" anything. Wildcards
 * inside the text (% or _) have no exact equivalent there: refused.
 */
function likeFilter(pattern: string, at: string): Record<string, unknown> {
  const leading = pattern.startsWith("%");
  const rest = trimStartChar(pattern, "%");
  const trailing = rest.endsWith("%");
  const text = trimEndChar(rest, "%");
  if (/[%_]/.test(text)) {
    throw badRequest(`${at}: like supports % at the start and at the end of the pattern only (no % or _ inside)`, { parameter: at });
  }
  if (text === "") return leading || trailing ? {} : { equals: "" };
  const key = leading && trailing ? "contains" : trailing ? "startsWith" : leading ? "endsWith" : "equals";
  return { [key]: text, mode: "insensitive" };
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
  return { [field]: dir } as Prisma.ExchangeDriverOrderByWithRelationInput;
}

function sortParam(value: unknown, at = "sort"): Prisma.ExchangeDriverOrderByWithRelationInput[] {
  if (value === undefined) return [];
  if (typeof value === "string") {
    return value
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "")
      .map((part) => {
        const [field = "", direction, extra] = part.split(/\s+/);
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
