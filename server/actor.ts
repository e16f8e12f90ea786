// Who did something: written to order histories, ledgers and the audit log.
export type ActorType = "API_KEY" | "USER" | "DRIVER" | "SYSTEM" | "EXCHANGE";

export interface Actor {
  type: ActorType;
  id: string | null;
}

export const SYSTEM_ACTOR: Actor = { type: "SYSTEM", id: null };
