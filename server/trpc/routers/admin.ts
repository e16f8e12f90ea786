// Administration: console users, integration API keys, the audit log.
import { z } from "zod";
import { adminProcedure, createTRPCRouter } from "../init";
import { UserRole } from "../../generated/prisma/enums";
import { createUser, listUsers, resetUserPassword, setUserDisabled, updateUser } from "../../console/users";
import { issueConsoleApiKey, listApiKeys, revokeConsoleApiKey, setCallbackTemplate } from "../../console/api-keys";
import { listAudit } from "../../audit/list-audit";
import { networkStatistics } from "../../routing/network-stats";

const id = z.number().int().positive();
const roles = z.array(z.enum(Object.values(UserRole) as [UserRole, ...UserRole[]])).min(1).max(Object.values(UserRole).length);
const password = z.string().min(8).max(200);
const template = z.string().trim().max(2000).nullable();
/** A PBX extension: digits (and the dial pad's * and #), "" or null clears it. */
const extension = z.string().trim().regex(/^[0-9*#]{0,20}$/, "digits, * and # only").nullable();

export const adminRouter = createTRPCRouter({
  /** The cities' road networks and the OSM import history. */
  roads: adminProcedure.query(({ ctx }) => networkStatistics(ctx.db)),

  users: createTRPCRouter({
    list: adminProcedure.query(({ ctx }) => listUsers(ctx.db)),
    create: adminProcedure
      .meta({ entity: "user" })
      .input(z.object({ email: z.string().trim().toLowerCase().pipe(z.email()), name: z.string().trim().min(1).max(100), password, roles, locale: z.enum(["ru", "en"]).optional(), extension: extension.optional() }))
      .mutation(({ ctx, input }) => createUser(ctx.db, input)),
    update: adminProcedure
      .meta({ entity: "user" })
      .input(z.object({ userId: id, name: z.string().trim().min(1).max(100).optional(), roles: roles.optional(), extension: extension.optional() }))
      .mutation(({ ctx, input }) => updateUser(ctx.db, ctx.user.id, input)),
    setDisabled: adminProcedure
      .meta({ entity: "user" })
      .input(z.object({ userId: id, disabled: z.boolean() }))
      .mutation(({ ctx, input }) => setUserDisabled(ctx.db, ctx.user.id, input)),
    resetPassword: adminProcedure
      .meta({ entity: "user" })
      .input(z.object({ userId: id, password }))
      .mutation(({ ctx, input }) => resetUserPassword(ctx.db, input)),
  }),

  apiKeys: createTRPCRouter({
    list: adminProcedure.query(({ ctx }) => listApiKeys(ctx.db)),
    issue: adminProcedure
      .meta({ entity: "apiKey" })
      .input(z.object({ name: z.string().trim().min(1).max(100), callbackTemplate: template.optional() }))
      .mutation(({ ctx, input }) => issueConsoleApiKey(ctx.db, input)),
    revoke: adminProcedure
      .meta({ entity: "apiKey" })
      .input(z.object({ apiKeyId: id }))
      .mutation(({ ctx, input }) => revokeConsoleApiKey(ctx.db, input.apiKeyId)),
    setCallback: adminProcedure
      .meta({ entity: "apiKey" })
      .input(z.object({ apiKeyId: id, callbackTemplate: template, rotateSecret: z.boolean().optional() }))
      .mutation(({ ctx, input }) => setCallbackTemplate(ctx.db, input)),
  }),

  audit: adminProcedure
    .input(
      z.object({
        cursor: id.nullish(),
        limit: z.number().int().min(10).max(500).default(100),
        userId: id.optional(),
        entity: z.string().max(50).optional(),
        entityId: z.string().max(50).optional(),
        action: z.string().max(100).optional(),
      }),
    )
    .query(({ ctx, input }) => listAudit(ctx.db, input)),
});
