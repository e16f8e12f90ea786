import { z } from "zod";
import { defineOperation } from "../define";
import { API_VERSION, CHANGESET } from "../changeset";

export const version = defineOperation({
  method: "GET",
  path: "version",
  summary: "The API version (major.minor.patch)",
  auth: false,
  input: z.object({}),
  output: z.object({ version: z.string().describe("major.minor.patch").meta({ examples: ["1.51.0"] }) }),
  handle: async () => ({ version: API_VERSION }),
});

export const changeset = defineOperation({
  method: "GET",
  path: "changeset",
  summary: "The version history as [version, description] pairs",
  auth: false,
  topLevel: true,
  input: z.object({}),
  output: z.object({ changeset: z.array(z.tuple([z.string().describe("A version"), z.string().describe("What it changed")])).describe("The version history, oldest first, as [version, description] pairs") }),
  handle: async () => ({ changeset: CHANGESET.map(([v, d]) => [v, d] as [string, string]) }),
});
