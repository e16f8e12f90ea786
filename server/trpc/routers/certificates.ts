// The exchange operator's certificate authority: the root and intermediate
// authorities, participants' users' PKCS#12 access certificates (the file is
// returned once, never stored), and revocation. A thin adapter over
// server/certificates.
import { z } from "zod";
import { createTRPCRouter, roleProcedure } from "../init";
import { participantNames } from "../../exchange/participants";
import {
  createIntermediateAuthority,
  createRootAuthority,
  issueParticipantCertificate,
  listCertificates,
  revokeCertificate,
  MIN_PASSWORD_LENGTH,
} from "../../certificates";

const operatorProcedure = roleProcedure("EXCHANGE_OPERATOR");
const name = z.string().trim().min(1).max(100);
const days = z.number().int().min(1).max(3650);

export const certificatesRouter = createTRPCRouter({
  list: operatorProcedure.query(({ ctx }) => listCertificates(ctx.db)),
  participants: operatorProcedure.query(({ ctx }) => participantNames(ctx.db)),
  createRoot: operatorProcedure
    .meta({ entity: "certificate" })
    .input(z.object({ commonName: name, organization: name.optional(), days: days.optional(), replace: z.boolean().optional() }))
    .mutation(({ ctx, input }) => createRootAuthority(ctx.db, input)),
  createIntermediate: operatorProcedure
    .meta({ entity: "certificate" })
    .input(z.object({ commonName: name, days: days.optional() }))
    .mutation(({ ctx, input }) => createIntermediateAuthority(ctx.db, input)),
  issue: operatorProcedure
    .meta({ entity: "certificate" })
    .input(
      z.object({
        participantId: z.number().int().positive(),
        userName: name,
        email: z.string().trim().max(200).pipe(z.email()).optional(),
        password: z.string().min(MIN_PASSWORD_LENGTH).max(200),
        days: days.optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const issued = await issueParticipantCertificate(ctx.db, input);
      return { id: issued.certificate.id, serial: issued.certificate.serial, fileName: issued.fileName, pkcs12: issued.pkcs12.toString("base64") };
    }),
  revoke: operatorProcedure
    .meta({ entity: "certificate" })
    .input(z.object({ serial: z.string().trim().min(1).max(100) }))
    .mutation(({ ctx, input }) => revokeCertificate(ctx.db, input.serial)),
});
