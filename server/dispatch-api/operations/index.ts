// Every operation of the dispatch API, in the order of the reference.
import type { Operation } from "../define";
import { changeset, version } from "./meta";

export const OPERATIONS: Operation[] = [version, changeset] as unknown as Operation[];
